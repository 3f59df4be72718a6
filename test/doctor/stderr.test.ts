// What the doctor reads from a failing server's stderr: the line worth showing, the
// variables it names as missing, and which shell variables are noise.
import {describe, expect, it} from 'vitest';
import {informativeLine, isShellNoise, lineScore, variablesNamedIn} from '../../src/doctor/stderr.js';

// `npx -y @acme/weather-mcp` for a package that does not exist (npm 10 output).
const NPM_404 = [
	'npm error code E404',
	'npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fweather-mcp - Not found',
	'npm error 404',
	"npm error 404  '@acme/weather-mcp@*' is not in this registry.",
	'npm error 404',
	'npm error 404 Note that you can also install from a',
	'npm error 404 tarball, folder, http url, or git url.',
	'npm error A complete log of this run can be found in: /home/u/.npm/_logs/2026-11-30T17_01_02_003Z-debug-0.log',
];

// npm 6-9 spelling of the same.
const NPM_ERR_404 = [
	'npm ERR! code E404',
	'npm ERR! 404 Not Found - GET https://registry.npmjs.org/nope-mcp - Not found',
	'npm ERR! 404 ',
	'',
	'npm ERR! A complete log of this run can be found in:',
	'npm ERR!     /home/u/.npm/_logs/2024-01-01T00_00_00_000Z-debug-0.log',
];

const PYTHON_KEYERROR = [
	'Traceback (most recent call last):',
	'  File "/srv/weather/server.py", line 8, in <module>',
	"    API_KEY = os.environ['WEATHER_API_KEY']",
	'              ~~~~~~~~~~^^^^^^^^^^^^^^^^^^^',
	'  File "<frozen os>", line 714, in __getitem__',
	"KeyError: 'WEATHER_API_KEY'",
];

const NODE_MISSING_MODULE = [
	'node:internal/modules/cjs/loader:1228',
	'  throw err;',
	'  ^',
	'',
	"Error: Cannot find module '/build/index.js'",
	'    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
	'    at Module._load (node:internal/modules/cjs/loader:1051:27)',
	'    at node:internal/main/run_main_module:28:49 {',
	"  code: 'MODULE_NOT_FOUND',",
	'  requireStack: []',
	'}',
	'',
	'Node.js v20.20.0',
];

describe('informativeLine', () => {
	it("shows npm's 404 line, not its log-file pointer", () => {
		expect(informativeLine(NPM_404)).toBe(
			'npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fweather-mcp - Not found',
		);
		expect(informativeLine(NPM_ERR_404)).toBe(
			'npm ERR! 404 Not Found - GET https://registry.npmjs.org/nope-mcp - Not found',
		);
	});

	it('shows the exception of a Python traceback and of a Node crash, not frames or the version footer', () => {
		expect(informativeLine(PYTHON_KEYERROR)).toBe("KeyError: 'WEATHER_API_KEY'");
		expect(informativeLine(NODE_MISSING_MODULE)).toBe("Error: Cannot find module '/build/index.js'");
	});

	it('prefers an error line over later chatter, and falls back to the last line of text', () => {
		expect(
			informativeLine(['starting weather server v1.2', 'ERROR: could not connect to upstream', 'shutting down']),
		).toBe('ERROR: could not connect to upstream');
		expect(informativeLine(['starting', '  listening on stdio  ', ''])).toBe('listening on stdio');
		expect(
			informativeLine(['', '    at f (/x.js:1:1)', 'npm error A complete log of this run can be found in: /x.log']),
		).toBeUndefined();
		expect(informativeLine([])).toBeUndefined();
	});

	it('drops colour sequences', () => {
		expect(informativeLine(['\u001B[31mError:\u001B[39m boom'])).toBe('Error: boom');
	});

	it('scores lines', () => {
		expect(NPM_404.map(lineScore)).toEqual([2, 3, 0, 2, 0, 2, 2, 0]);
		expect(lineScore('/bin/sh: 1: weather-mcp: not found')).toBe(2);
		expect(lineScore('sh: weather-mcp: command not found')).toBe(3);
	});
});

describe('variablesNamedIn', () => {
	it.each([
		["KeyError: 'WEATHER_API_KEY'", ['WEATHER_API_KEY']],
		['KeyError: "GITHUB_TOKEN"', ['GITHUB_TOKEN']],
		["    API_KEY = os.environ['WEATHER_API_KEY']", ['WEATHER_API_KEY']],
		['key = os.environ.get("OPENAI_API_KEY")', ['OPENAI_API_KEY']],
		['Error: process.env.BRAVE_API_KEY is undefined', ['BRAVE_API_KEY']],
		["const key = process.env['SLACK_TOKEN'].trim();", ['SLACK_TOKEN']],
		['Missing required environment variable WEATHER_API_KEY', ['WEATHER_API_KEY']],
		['Error: Missing environment variable: "DATABASE_URL"', ['DATABASE_URL']],
		['environment variable NOTION_TOKEN is required', ['NOTION_TOKEN']],
		['Error: GITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set', ['GITHUB_PERSONAL_ACCESS_TOKEN']],
		['WEATHER_API_KEY is not set', ['WEATHER_API_KEY']],
		['ValueError: $WEATHER_API_KEY must be set', ['WEATHER_API_KEY']],
		['fatal: API_TOKEN is required', ['API_TOKEN']],
		['Please set the WEATHER_API_KEY environment variable', ['WEATHER_API_KEY']],
	])('%s', (line, names) => {
		expect(variablesNamedIn([line])).toEqual(names);
	});

	it('reads the names of a whole tail in order, once each', () => {
		expect(variablesNamedIn(PYTHON_KEYERROR)).toEqual(['WEATHER_API_KEY']);
		expect(variablesNamedIn(['A_KEY is not set', 'B_KEY is not set', "KeyError: 'A_KEY'"])).toEqual(['A_KEY', 'B_KEY']);
	});

	it('ignores dictionary keys, lower-case words and log levels', () => {
		expect(
			variablesNamedIn([
				"KeyError: 'id'",
				'the api key is required',
				'Field required [type=missing]',
				'ERROR missing argument',
				"Error: Cannot find module '/x'",
				'ReferenceError: foo is not defined',
			]),
		).toEqual([]);
		expect(variablesNamedIn(NPM_404)).toEqual([]);
		expect(variablesNamedIn(NODE_MISSING_MODULE)).toEqual([]);
	});
});

describe('isShellNoise', () => {
	it('marks interactive-shell and terminal state, not variables servers read', () => {
		expect(
			[
				'SHLVL',
				'_',
				'OLDPWD',
				'PWD',
				'TERM',
				'SSL_CERT_FILE',
				'SSH_AUTH_SOCK',
				'TERM_PROGRAM',
				'LS_COLORS',
				'XDG_SESSION_ID',
			].filter(isShellNoise),
		).toHaveLength(10);
		expect(
			['PATH', 'HOME', 'WEATHER_API_KEY', 'PYTHONUNBUFFERED', 'NODE_OPTIONS', 'VIRTUAL_ENV', 'LANG'].filter(
				isShellNoise,
			),
		).toEqual([]);
	});
});
