# ignores-shutdown: healthy on the wire, but ignores stdin EOF (a non-daemon thread) and SIGTERM, so only SIGKILL ends it (R14). Expect: shutdown-timeout (error: SIGKILL needed). Mirrors the 'ignores stdin EOF and SIGTERM' row of docs/protocol.md "Client reactions".
import json
import signal
import sys
import threading
import time

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the input text back",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}

signal.signal(signal.SIGTERM, signal.SIG_IGN)  # FAULT: SIGTERM is ignored
# FAULT: a non-daemon background thread keeps the process alive after the stdin loop below has ended


def heartbeat():
    while True:
        time.sleep(1)


threading.Thread(target=heartbeat, name="heartbeat").start()


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def result(request):
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        offered = params.get("protocolVersion")
        return {
            "protocolVersion": offered if offered in KNOWN_VERSIONS else "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "ignores-shutdown", "version": "1.0.0"},
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
        print(f"ignores-shutdown: ignoring a line that is not JSON ({len(line)} chars)", file=sys.stderr)
        continue
    if "id" not in request:
        continue  # a notification: never answered
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
