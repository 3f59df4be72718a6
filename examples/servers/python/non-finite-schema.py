# non-finite-schema: a tool's inputSchema has an unbounded "maximum" of float('inf'), which json.dumps writes as the token Infinity (its default allow_nan=True): not JSON (J1). Expect: non-portable-json at the token. Field case: none; docs/clients.md#non-finite-numbers.
import json
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
# FAULT: float("inf") as a bound; json.dumps writes it as Infinity, which JSON.parse and serde_json reject
LIMIT_TOOL = {
    "name": "limit",
    "description": "Clamp a number",
    "inputSchema": {"type": "object", "properties": {"n": {"type": "number", "maximum": float("inf")}}, "required": ["n"]},
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
            "serverInfo": {"name": "non-finite-schema", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": [LIMIT_TOOL]}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:  # ends at stdin EOF, and the process exits
    try:
        request = json.loads(line)
    except ValueError:
        print(f"non-finite-schema: ignoring a line that is not JSON ({len(line)} chars)", file=sys.stderr)
        continue
    if "id" not in request:
        continue  # a notification: never answered
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
