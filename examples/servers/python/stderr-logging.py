# stderr-logging: no wire fault; logs go to stderr, where they belong (R7). Expect: no findings (verdict ok). The stderr-merged manifest entry runs it with 2>&1.
import json
import logging
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the input text back",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")  # default stream: stderr
log = logging.getLogger("demo")
log.info("server starting")


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
            "serverInfo": {"name": "stderr-logging", "version": "1.0.0"},
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
        print(f"stderr-logging: ignoring a line that is not JSON ({len(line)} chars)", file=sys.stderr)
        continue
    log.info("received %s", request.get("method"))
    if "id" not in request:
        continue  # a notification: never answered
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
