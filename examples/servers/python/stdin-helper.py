# stdin-helper: answers initialize, then builds its tools/list by running a helper process that inherits
# the server's stdin (the protocol pipe) and reads it: `cat` swallows the client's next messages and the
# server waits for it, so tools/list hangs until stdin closes (F40, patrup/mcp-libre#9; there a tool call
# ran the helper, here tools/list does so that a probe, which calls no tools, meets it).
# Expect: stdin-inherited at the tools/list request. Not unflushed-output: every reply is flushed at once.
# The fix: subprocess.run([...], stdin=subprocess.DEVNULL).
import json
import subprocess
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


while True:
    line = sys.stdin.readline()
    if not line:
        break
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
            "serverInfo": {"name": "stdin-helper", "version": "1.0.0"},
        }
    elif method == "tools/list":
        # FAULT: the helper inherits stdin (no stdin=subprocess.DEVNULL) and reads it to EOF.
        listing = subprocess.run(["cat"], stdout=subprocess.PIPE, check=False)
        result = {"tools": [{"name": "libreoffice_convert", "description": f"Convert a document ({len(listing.stdout)} bytes of helper output)", "inputSchema": {"type": "object"}}]}
    elif method == "ping":
        result = {}
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {method}"}})
        continue
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})
