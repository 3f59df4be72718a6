# invalid-utf8: a tools/list description carries raw CP949 (Korean) bytes, which are not UTF-8 (R3). Expect: invalid-utf8 at the first bad byte. Mirrors F23 (DeusData/codebase-memory-mcp#511).
import json
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
# FAULT: bytes read from a CP949 file, copied into the JSON string as they are ("검색 도구" = B0 CB BB F6 20 B5 B5 B1 B8)
RAW_DESCRIPTION = "검색 도구".encode("cp949")
SEARCH_TOOL = {"name": "search", "description": "@RAW@", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}}


def send(message):
    line = json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n"
    sys.stdout.buffer.write(line.replace(b"@RAW@", RAW_DESCRIPTION))  # the raw bytes go straight to the wire
    sys.stdout.buffer.flush()


def result(request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        offered = params.get("protocolVersion")
        return {
            "protocolVersion": offered if offered in KNOWN_VERSIONS else "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "invalid-utf8", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": [SEARCH_TOOL]}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        print(f"invalid-utf8: ignoring a line that is not JSON ({len(line)} chars)", file=sys.stderr)
        continue
    if "id" not in request:
        continue  # a notification: never answered
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
