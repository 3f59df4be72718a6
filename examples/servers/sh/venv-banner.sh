#!/bin/sh
# venv-banner: a wrapper script echoes to stdout before exec'ing the (healthy) server (R5). Expect: stray-output. Mirrors F07 (kev-hu/zep-mcp PR#3).
echo "Activating virtual environment..."  # FAULT: the wrapper's own stdout is the server's stdout (use: echo ... >&2)
exec python3 "$(dirname "$0")/../python/healthy.py"
