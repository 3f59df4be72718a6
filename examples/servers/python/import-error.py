# import-error: a missing dependency raises at import; the traceback goes to stderr and the process exits 1 before any frame (R14). Expect: early-exit + unanswered-request. Mirrors F08's shape (rtuin/mcp-mermaid-validator#2): EXIT before any frame.
import json
import sys

from demo_weather_sdk import Client  # FAULT: not installed in the interpreter the client launches -> ModuleNotFoundError

for line in sys.stdin:
    request = json.loads(line)
    if "id" in request:
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": Client().handle(request)}), flush=True)
