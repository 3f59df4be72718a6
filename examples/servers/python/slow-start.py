# slow-start: a healthy server that takes a while to start (a slow import, a first-run download) before it
# reads stdin; then it answers like healthy.py. The delay in seconds is the first argument, else the
# SLOW_START_SECONDS environment variable, else 11. At 11 s it is inside every client's startup limit
# (Claude Code 30 s): expect nothing (not unflushed-output, not no-response). At 20 s (F42) expect
# slow-response: over half of the strictest 30 s limit, but still answered.
import json
import os
import sys
import time

delay = float(sys.argv[1]) if len(sys.argv) > 1 else float(os.environ.get("SLOW_START_SECONDS", "11"))
print(f"slow-start: preparing ({delay:g} s)...", file=sys.stderr, flush=True)
time.sleep(delay)  # stands in for the slow start-up work: stdout stays silent meanwhile

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the input text back",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        continue
    if "id" not in request:
        continue
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        offered = params.get("protocolVersion")
        result = {
            "protocolVersion": offered if offered in KNOWN_VERSIONS else "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "slow-start", "version": "1.0.0"},
        }
    elif method == "tools/list":
        result = {"tools": [ECHO_TOOL]}
    elif method == "ping":
        result = {}
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {method}"}})
        continue
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})
