# handler-print: print() inside the tools/call handler (FAULT line). Expect, with `probe --call get_weather` or
# `--call-read-only`: stray-output inside the reply window of tools/call "get_weather"; without a call: none.
# Field case: F02's print(), moved into a handler, where only a call reaches it.
import json
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
TOOLS = [
    {
        "name": "get_weather",
        "description": "Current weather for a city",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "clear_cache",
        "description": "Forget every cached forecast",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": False, "destructiveHint": True},
    },
]


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()  # a pipe makes sys.stdout block-buffered: flush every message


def call(params):
    args = params.get("arguments") or {}
    if params.get("name") == "get_weather":
        print("DEBUG get_weather called with", args)  # FAULT: print() goes to stdout, the protocol stream
        return {"content": [{"type": "text", "text": f"{args.get('city', '')}: 21 C, clear"}]}
    return {"content": [{"type": "text", "text": "cache cleared"}]}


def result(request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        offered = params.get("protocolVersion")
        return {
            "protocolVersion": offered if offered in KNOWN_VERSIONS else "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "handler-print", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        return call(params)
    if method == "ping":
        return {}
    return None


for line in sys.stdin:  # ends at stdin EOF, and the process exits
    try:
        request = json.loads(line)
    except ValueError:
        print(f"handler-print: ignoring a line that is not JSON ({len(line)} chars)", file=sys.stderr)
        continue
    if "id" not in request:
        continue  # a notification: never answered
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
