#!/bin/sh
# stderr-merged: runs a server that logs to stderr, but folds its stderr into stdout with 2>&1 (R5, R7). Expect: stray-output per log line + stderr-merged. Mirrors the stderr-merged row of docs/findings.md.
exec python3 "$(dirname "$0")/../python/stderr-logging.py" 2>&1  # FAULT: 2>&1 sends the logs down the wire (drop it)
