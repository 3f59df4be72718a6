import {describe, expect, it} from 'vitest';
import {fieldCase, INIT, INIT_OK, run, runFieldCase as runCase} from '../harness.js';
import {
	bytesOf,
	findingsOf,
	handshake,
	initOk,
	lengthOn,
	request,
	result,
	run as exchange,
	type Step,
} from '../exchange.js';

describe('stray-output (R5): kind, framework and the fix that goes with it', () => {
	it('F35: four JVM console-appender lines, stderr empty: stray-output kind log ×4 with the appender fix, no stderr-merged', () => {
		const findings = runCase(fieldCase('F35')).getSnapshot().findings;
		expect(findings.map((f) => f.code)).toEqual(['stray-output', 'stray-output', 'stray-output', 'stray-output']);
		for (const finding of findings) {
			expect(finding).toMatchObject({severity: 'error', stream: 'stdout', detail: {kind: 'log', logger: 'jvm'}});
			expect(finding.detail?.['merged']).toBeUndefined();
			expect(finding.hint).toContain('<target>System.err</target>');
			expect(finding.hint).not.toContain('2>&1');
		}
		expect(findings[0]).toMatchObject({
			offset: 0,
			byteLength: 198,
			detail: {clientError: 'Unexpected non-whitespace character after JSON at position 4'},
		});
	});

	it('F36: `dotnet run` banners are launcher ×2 with the launch-command fix', () => {
		const findings = runCase(fieldCase('F36')).getSnapshot().findings;
		expect(findings.map((f) => [f.code, f.offset, f.byteLength, f.detail?.['kind'], f.detail?.['launcher']])).toEqual([
			['stray-output', 0, 86, 'launcher', 'dotnet-run'],
			['stray-output', 87, 11, 'launcher', 'dotnet-run'],
		]);
		expect(findings[0]!.detail?.['clientError']).toBe(`Unexpected token 'U', "Using laun"... is not valid JSON`);
		for (const finding of findings) {
			expect(finding.hint).toContain('`dotnet <App>.dll`');
			expect(finding.hint).toContain('dotnet run --no-build --no-launch-profile');
			expect(finding.hint).toContain('the server code is not at fault');
		}
	});

	it('names the framework from the line format: Python logging, .NET, Rust tracing; unsure stays generic', () => {
		const lines = [
			'2025-06-09 21:38:09,942 - src.log_utils - INFO - Logging initialized\n',
			'info: Microsoft.Hosting.Lifetime[14]\n',
			'2026-01-01T10:00:00.123456Z  INFO my_server::transport: listening on stdio\n',
			'[12:00:01] starting\n',
		];
		const session = run([
			['stdin', 0, INIT],
			...lines.map((text, i) => ['stdout', 1 + i, text] as const),
			['stdout', 9, INIT_OK],
		]);
		const findings = session.getSnapshot().findings;
		expect(findings.map((f) => [f.detail?.['kind'], f.detail?.['logger']])).toEqual([
			['log', 'python'],
			['log', 'dotnet'],
			['log', 'rust'],
			['log', undefined],
		]);
		expect(findings[0]!.hint).toContain('logging.basicConfig(stream=sys.stderr)');
		expect(findings[1]!.hint).toContain('LogToStandardErrorThreshold');
		expect(findings[2]!.hint).toContain('with_writer(std::io::stderr)');
		expect(findings[3]!.hint).toContain('most logging frameworks write to stdout by default');
	});
});

describe("stray-output: the kind and the fix in the server's own runtime", () => {
	/** The first stray-output finding for `text` on stdout before the handshake's reply, with `command`. */
	const strayFor = (text: string, command: readonly string[] = ['server']) =>
		run(
			[
				['stdin', 0, INIT],
				['stdout', 5, text],
				['stdout', 10, INIT_OK],
			],
			{command},
		)
			.getSnapshot()
			.findings.find((f) => f.code === 'stray-output')!;

	it.each([
		['Information: Loaded 3 tools\n', 'dotnet', 'LogToStandardErrorThreshold'],
		['[10:00:00 INF] Starting\n', 'dotnet', 'LogToStandardErrorThreshold'],
		['2026/01/02 03:04:05 listening on stdio\n', 'go', 'log.SetOutput(os.Stderr)'],
		['time=2026-01-02T03:04:05Z level=INFO msg=ready\n', 'go', 'log.SetOutput(os.Stderr)'],
		['[2026-01-02T03:04:05Z INFO  my_server] ready\n', 'rust', 'with_writer(std::io::stderr)'],
		[' WARN lean_ctx: RAM GUARDIAN: memory at 42%\n', 'rust', 'with_writer(std::io::stderr)'],
		['PHP Warning:  Undefined variable $x in /srv/a.php on line 3\n', 'php', 'fwrite(STDERR'],
		['Success: Connected to the site.\n', 'php', 'WP_CLI::debug()'],
		['I, [2026-01-02T03:04:05.123456 #4242]  INFO -- : Listening\n', 'ruby', 'Logger.new($stderr)'],
	] as const)('%j is a log line of %s, with its fix first', (text, logger, fix) => {
		const finding = strayFor(text);
		expect(finding.detail).toMatchObject({kind: 'log', logger, runtime: logger, runtimeFrom: "the log line's format"});
		expect(finding.hint).toContain(fix);
		expect(finding.hint).toMatch(/\(runtime: [^)]+, inferred from the log line's format\)$/);
	});

	it.each([
		[['dnx', 'Contoso.Mcp'], 'dotnet', 'the command `dnx`', 'Console.Error.WriteLine'],
		[['java', '-jar', 'server.jar'], 'jvm', 'the command `java -jar`', 'System.err.println'],
		[['go', 'run', './cmd/server'], 'go', 'the command `go run`', 'fmt.Fprintln(os.Stderr'],
		[['cargo', 'run', '--release'], 'rust', 'the command `cargo run`', 'eprintln!'],
		[['php', 'wp-cli.phar', 'mcp'], 'php', 'the command `php`', 'fwrite(STDERR'],
		[['bundle', 'exec', 'ruby', 'server.rb'], 'ruby', 'the command `bundle`', '$stderr.puts'],
		[['uvx', 'mcp-server-x'], 'python', 'the command `uvx`', 'file=sys.stderr'],
		[['env', 'A=1', 'bunx', 'x'], 'node', 'the command `bunx`', 'console.error'],
	] as const)('a banner from %j gets the %s fix, inferred from %s', (command, runtime, from, fix) => {
		const finding = strayFor('Loading FeatureFlags from file: C:\\f.json\n', command);
		expect(finding.detail).toMatchObject({kind: 'banner', runtime, runtimeFrom: from});
		expect(finding.hint).toContain(fix);
		expect(finding.hint.endsWith(`inferred from ${from})`)).toBe(true);
	});

	it('a launcher line names its launcher, not the runtime', () => {
		expect(strayFor('> Task :run\n', ['gradle', 'run']).detail).toMatchObject({kind: 'launcher', launcher: 'gradle'});
		expect(
			strayFor("Unable to find image 'acme/mcp:1' locally\n", ['docker', 'run', '-i', 'acme/mcp:1']).detail,
		).toMatchObject({
			kind: 'launcher',
			launcher: 'docker',
		});
	});

	it('a banner the `sh -c` script echoes itself gets the wrapper fix, not the runtime of the server it execs', () => {
		const script = 'echo "Starting edge server v1.0"; exec python3 server.py';
		const finding = strayFor('Starting edge server v1.0\n', ['sh', '-c', script]);
		expect(finding.detail).toEqual({
			kind: 'banner',
			clientError: `Unexpected token 'S', "Starting e"... is not valid JSON`,
			scriptShell: 'sh',
		});
		expect(finding.hint).toBe(
			"The line's text is in the `sh -c` script, which has an `echo`/`printf`: the wrapper script most likely prints it before the server starts, so the server's code is not at fault. Send it to stderr (`echo … >&2`) or drop it, and start the server with `exec`.",
		);
		// `bash -lc` too; the script's text must hold the line, and an echo or printf must be there.
		expect(strayFor('ready now\n', ['/bin/bash', '-lc', "printf 'ready now\\n'; exec node s.js"]).detail).toMatchObject(
			{
				scriptShell: 'bash',
			},
		);
		const other = strayFor('Loaded 3 tools\n', ['sh', '-c', script]);
		expect(other.detail).toMatchObject({kind: 'banner', runtime: 'python', runtimeFrom: 'the command `python3`'});
		expect(other.detail?.['scriptShell']).toBeUndefined();
		const noEcho = strayFor('Starting edge server v1.0\n', [
			'sh',
			'-c',
			'exec python3 server.py "Starting edge server v1.0"',
		]);
		expect(noEcho.detail?.['scriptShell']).toBeUndefined();
		expect(noEcho.detail).toMatchObject({runtime: 'python'});
	});

	it('no runtime inferred: the generic fix, and no runtime in detail', () => {
		const finding = strayFor('Server started\n', ['/opt/bin/server']);
		expect(finding.detail?.['runtime']).toBeUndefined();
		expect(finding.hint).toBe(
			'Print startup messages to stderr, not stdout: Python `print(..., file=sys.stderr)`, Node `console.error(...)`.',
		);
	});
});

describe('stray-output inside the reply window of a handler request', () => {
	const call = {jsonrpc: '2.0', id: 3, method: 'tools/call', params: {name: 'get_weather', arguments: {city: ''}}};
	const line = 'DEBUG get_weather called with {}\n';
	const steps = [
		...handshake(),
		['stdin', 12, request(1, 'tools/list')],
		['stdout', 13, result(1, {tools: []})],
		['stdin', 20, call],
		['stdout', 21, line],
		['stdout', 22, result(3, {content: []})],
		['stdout', 23, 'after the reply\n'],
	] as const satisfies readonly Step[];

	it('names the call whose window holds the line, at its exact offset; a line after the reply is not in it', () => {
		const found = findingsOf(exchange(steps), 'stray-output');
		const at = lengthOn('stdout', steps.slice(0, 5));
		expect(found.map((f) => [f.offset, f.byteLength, f.detail?.['during']])).toEqual([
			// The evidence is the line without its LF.
			[at, line.length - 1, {method: 'tools/call', id: 3, name: 'get_weather'}],
			[at + line.length + bytesOf(result(3, {content: []})).length, 15, undefined],
		]);
		expect(found[0]!.message).toBe(
			'stdout carries a log line, not an MCP message, inside the reply window of tools/call "get_weather" (id 3)',
		);
		expect(
			found[0]!.hint.startsWith(
				'It was printed while the server handled tools/call "get_weather" (id 3): the handler, or code it calls, writes to stdout.',
			),
		).toBe(true);
		// Every client reads on: the line is skipped, and logged by the SDKs (degraded, not failed).
		expect(found[0]!.impact.find((i) => i.client === 'ts-sdk-v1')?.reaction).toBe('skip-log');
	});

	it('a line while only initialize awaits its reply names no window (a start-up banner)', () => {
		const found = findingsOf(
			exchange([
				['stdin', 0, INIT],
				['stdout', 1, 'Server started\n'],
			]),
			'stray-output',
		);
		expect(found[0]!.detail?.['during']).toBeUndefined();
	});
});

describe('stray-output with a reply glued after its text on the same line', () => {
	const initLine = JSON.stringify(initOk());
	// TS SDK key order (result first): the message starts at its first `{`, not at `"jsonrpc"`.
	const tsOrder = JSON.stringify({result: initOk().result, jsonrpc: '2.0', id: 0});

	it("`print('Server ready', end='')` then the reply: names the reply and its offset, every chunk cut", () => {
		const text = `Server ready${initLine}\n`;
		for (let cut = 1; cut < text.length; cut += 7) {
			const found = findingsOf(
				exchange([
					['stdin', 0, INIT],
					['stdout', 5, text.slice(0, cut)],
					['stdout', 6, text.slice(cut)],
				]),
				'stray-output',
			);
			expect(found.map((f) => [f.offset, f.byteLength, f.detail?.['glued']])).toEqual([
				[0, text.length - 1, {offset: 12, id: 0, method: 'initialize'}],
			]);
			expect(found[0]!.message).toBe(
				'stdout carries a banner line before any message, not an MCP message; the reply to initialize (id 0) follows on the same line at offset 12, with no newline before it, so clients drop it with the line',
			);
			expect(found[0]!.hint.startsWith('The reply itself is whole: the text before it ends without a newline')).toBe(
				true,
			);
		}
	});

	it('an escape sequence (hide cursor) glued before a reply written in the TS SDK key order', () => {
		const found = findingsOf(
			exchange([
				['stdin', 0, INIT],
				['stdout', 5, `\u001b[?25l${tsOrder}\n`],
			]),
			'stray-output',
		);
		expect(found.map((f) => f.detail?.['glued'])).toEqual([{offset: 6, id: 0, method: 'initialize'}]);
	});

	it('not a reply: a logged request, a reply to no open request, or a line with text after the JSON', () => {
		const lines = [
			`got ${JSON.stringify(request(1, 'tools/list'))}\n`,
			`sent ${JSON.stringify(result(7, {}))}\n`,
			`Server ready${initLine} ok\n`,
		];
		for (const line of lines) {
			const found = findingsOf(
				exchange([
					['stdin', 0, INIT],
					['stdout', 5, line],
				]),
				'stray-output',
			);
			expect(found.map((f) => [f.offset, f.detail?.['glued']])).toEqual([[0, undefined]]);
		}
	});
});
