# no-response: blocks at import, before its read loop, after one stderr line; stdout stays silent (R15). Expect: no-response + unanswered-request + shutdown-timeout (SIGTERM needed). Mirrors F27 (CursorTouch/Windows-MCP#68).
import sys
import time

print("windows-mcp-demo: connecting to the desktop session...", file=sys.stderr, flush=True)
time.sleep(3600)  # FAULT: stands in for a blocking module-level call (UI automation, a network retry loop)

# never reached: the read loop a server needs
for line in sys.stdin:
    pass
