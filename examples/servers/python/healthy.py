# healthy: no wire fault. Expect: no findings (verdict ok). Field case: none; the Python reference server.
import json
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the input text back",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()  # a pipe makes sys.stdout block-buffered: flush every message


def result(request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        offered = params.get("protocolVersion")
        return {
            "protocolVersion": offered if offered in KNOWN_VERSIONS else "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "healthy", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": [ECHO_TOOL]}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": str(params.get("arguments", {}).get("text", ""))}]}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:  # ends at stdin EOF, and the process exits
    try:
        request = json.loads(line)
    except ValueError:
        print(f"healthy: ignoring a line that is not JSON ({len(line)} chars)", file=sys.stderr)
        continue
    if "id" not in request:
        continue  # a notification: never answered
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
