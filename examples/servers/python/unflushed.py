# unflushed: print() without flush=True; on a pipe stdout is block-buffered, so replies wait in an 8 KiB buffer until exit (O3). Run WITHOUT -u or PYTHONUNBUFFERED. Expect: unflushed-output. Mirrors F21 (DeusData/codebase-memory-mcp#513).
import json
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the input text back",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}


def send(message):
    print(json.dumps(message, separators=(",", ":")))  # FAULT: no flush=True; nothing reaches the pipe until exit


def result(request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        offered = params.get("protocolVersion")
        return {
            "protocolVersion": offered if offered in KNOWN_VERSIONS else "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "unflushed", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": [ECHO_TOOL]}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": str(params.get("arguments", {}).get("text", ""))}]}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        print(f"unflushed: ignoring a line that is not JSON ({len(line)} chars)", file=sys.stderr)
        continue
    if "id" not in request:
        continue  # a notification: never answered
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
