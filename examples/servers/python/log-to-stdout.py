# log-to-stdout: logging.basicConfig(stream=sys.stdout) puts timestamped log lines between the frames (R5). Expect: stray-output per log line. Mirrors F10 (MarcusJellinghaus/mcp-workspace#14).
import json
import logging
import sys

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ECHO_TOOL = {
    "name": "echo",
    "description": "Echo the input text back",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}

print("mcp-workspace: starting", file=sys.stderr)  # its own stderr line: stderr is not silent, so this is not stderr-merged
# FAULT: the console handler writes to stdout; the default (no stream=) is stderr, which is where logs belong
logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
log = logging.getLogger("src.log_utils")
log.info("Logging initialized")


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
            "serverInfo": {"name": "log-to-stdout", "version": "1.0.0"},
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
        print(f"log-to-stdout: ignoring a line that is not JSON ({len(line)} chars)", file=sys.stderr)
        continue
    log.info("Received %s", request.get("method"))
    if "id" not in request:
        continue  # a notification: never answered
    value = result(request)
    if value is None:
        send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": f"Method not found: {request.get('method')}"}})
    else:
        send({"jsonrpc": "2.0", "id": request["id"], "result": value})
