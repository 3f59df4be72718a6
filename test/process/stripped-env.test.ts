import {describe, expect, it} from 'vitest';
import {buildEnv, strippedEnv} from '../../src/process/spawn.js';

describe('strippedEnv: the variables that matter the server did not get (names only)', () => {
	const shell = {
		PATH: '/usr/bin',
		HOME: '/home/u',
		NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
		HTTPS_PROXY: 'http://user:pw@proxy:3128',
		NO_PROXY: '',
		EDITOR: 'vi',
	};

	it("the SDK's default environment strips NODE_EXTRA_CA_CERTS and HTTPS_PROXY (an empty NO_PROXY is not named)", () => {
		const built = buildEnv({inheritEnv: false, env: [], parentEnv: shell, platform: 'linux'});
		expect(strippedEnv(shell, built.env, 'linux')).toEqual(['NODE_EXTRA_CA_CERTS', 'HTTPS_PROXY']);
	});

	it('--env NODE_EXTRA_CA_CERTS passes it; --inherit-env passes all', () => {
		const one = buildEnv({inheritEnv: false, env: ['NODE_EXTRA_CA_CERTS'], parentEnv: shell, platform: 'linux'});
		expect(strippedEnv(shell, one.env, 'linux')).toEqual(['HTTPS_PROXY']);
		const all = buildEnv({inheritEnv: true, env: [], parentEnv: shell, platform: 'linux'});
		expect(strippedEnv(shell, all.env, 'linux')).toEqual([]);
	});

	it('names compare case-insensitively on win32', () => {
		expect(strippedEnv({https_proxy: 'http://p:1'}, {HTTPS_PROXY: 'http://p:1'}, 'win32')).toEqual([]);
		expect(strippedEnv({Node_Extra_CA_Certs: 'C:\\ca.pem'}, {}, 'win32')).toEqual(['NODE_EXTRA_CA_CERTS']);
	});
});
