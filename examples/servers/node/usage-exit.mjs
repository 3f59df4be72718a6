// usage-exit: started without a subcommand, it prints 10 lines of usage to stdout and exits 0 before any frame (R5, R14). Expect: stray-output x10 + early-exit + unanswered-request. Mirrors F05 (launchdarkly/mcp-server#82).
const USAGE = `Usage: demo-mcp <command> [options]
Commands:
  start        Start the MCP server on stdio
  version      Print the version and exit
Options:
  --api-key <key>      API key (or DEMO_API_KEY)
  --base-uri <url>     API base URL (default: https://api.example.com)
  --log-level <level>  debug | info | warn | error (default: info)
  -h, --help           Show this help
Run 'demo-mcp start --help' for the server options.`;

if (process.argv[2] !== 'start') {
	console.log(USAGE); // FAULT: usage text on stdout, then a clean exit: the client gets junk and a closed pipe
	process.exitCode = 0; // nothing reads stdin, so the process ends here
} else {
	console.error('demo-mcp: the start subcommand is not part of this example');
	process.exitCode = 1;
}
