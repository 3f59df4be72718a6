"""The real MCP Python SDK client on several stdio servers, a few at a time (one interpreter: its imports
cost seconds). Usage: python python-sdk-client.py JOBS.json CWD TIMEOUT_S PARALLEL, where JOBS.json is
[{"name": ..., "command": [...], "calls": [{"name", "arguments"}]}, ...]. Prints one JSON line per server, in
completion order: {"name", "connected", "tools"?, "called"?, "error"?, "logged": [...]}. Each server: stdio_client +
ClientSession (initialize, list_tools, then call_tool for each of "calls", with a progress callback so that it sends
a progressToken as the probe does) with read_timeout_seconds=TIMEOUT_S, then close. "called" is "ok", or
"tool-error" for a result with isError."""
import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def leaf(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


async def run_one(job, cwd, timeout, limiter):
    out = {"name": job["name"], "connected": False}
    logged = []

    async def handler(message):
        if isinstance(message, Exception):
            logged.append(("%s: %s" % (type(message).__name__, message))[:200])

    async def progress(value, total, message):
        pass

    calling = False
    async with limiter:
        try:
            with anyio.fail_after(timeout * 2 + 15):
                command = job["command"]
                params = StdioServerParameters(command=command[0], args=command[1:], cwd=cwd)
                with open("/dev/null", "w") as errlog:
                    async with stdio_client(params, errlog=errlog) as (read, write):
                        async with ClientSession(read, write, read_timeout_seconds=timeout, message_handler=handler) as session:
                            await session.initialize()
                            out["connected"] = True
                            out["tools"] = len((await session.list_tools()).tools)
                            calling = True
                            for call in job.get("calls", []):
                                # The SDK sets no default timeout; the session's read timeout is the test's. A call gets
                                # more (slow-call answers after 65 s), as an application without a limit would wait.
                                result = await session.call_tool(
                                    call["name"], call["arguments"], read_timeout_seconds=timeout * 1.75, progress_callback=progress
                                )
                                out["called"] = "tool-error" if result.is_error else "ok"
                            calling = False
                            if "called" in out:
                                await anyio.sleep(0.5)  # a late message (progress after the reply) is read after the call
        except BaseException as error:  # noqa: BLE001 - every failure is a result here
            inner = leaf(error)
            if not calling:  # a failed call keeps the tool count: the listing succeeded
                out.pop("tools", None)
            out.pop("called", None)
            out["error"] = ("%s: %s" % (type(inner).__name__, inner)).splitlines()[0][:200]
    out["logged"] = logged[:3]
    print(json.dumps(out), flush=True)


async def main(jobs_file, cwd, timeout, parallel):
    with open(jobs_file) as handle:
        jobs = json.load(handle)
    limiter = anyio.Semaphore(parallel)
    async with anyio.create_task_group() as group:
        for job in jobs:
            group.start_soon(run_one, job, cwd, timeout, limiter)


anyio.run(main, sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))
