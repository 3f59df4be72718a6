# content-length: speaks LSP framing (Content-Length headers) both ways; NDJSON input never completes a header block, so it answers nothing (L1-L6). Expect: no-response + unanswered-request (+ content-length-framing if the probe re-probes). Mirrors F17 (buildomator/buildomator#2).
import json
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the input text back",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}


def send(message):
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    # FAULT: LSP framing; MCP stdio is one JSON message per line, no headers
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def result(request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        offered = params.get("protocolVersion")
        return {
            "protocolVersion": offered if offered in KNOWN_VERSIONS else "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "content-length", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": [ECHO_TOOL]}
    if method == "ping":
        return {}
    return None


def read_message():
    """Reads one LSP-framed message; None at EOF. An NDJSON line looks like a header line that never ends the block."""
    headers = {}
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.rstrip(b"\r\n")
        if not line:
            break  # the empty line that ends a header block
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get(b"content-length", b"0"))
    return json.loads(sys.stdin.buffer.read(length) or b"{}")


print("buildomator-demo: MCP server started on stdio", file=sys.stderr)
while (request := read_message()) is not None:
    if "id" not in request:
        continue
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
