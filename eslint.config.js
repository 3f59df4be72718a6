// Lint: ESLint's and typescript-eslint's recommended rules, and React's hook rules for the TUI (docs/architecture.md).
// Formatting is Prettier's (.prettierrc.json); nothing here restates it.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'examples/**/node_modules/**']},
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: {globals: {...globals.node}},
		plugins: {'react-hooks': reactHooks},
		rules: {
			'react-hooks/rules-of-hooks': 'error',
			'react-hooks/exhaustive-deps': 'warn',
			// mcp-wire's subject is control bytes: patterns that match them are the point (docs/protocol.md R1).
			'no-control-regex': 'off',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true},
			],
		},
	},
	{
		// Example servers commit one wire fault each on purpose; their spare constants mirror a real server's.
		files: ['examples/**'],
		rules: {'@typescript-eslint/no-unused-vars': 'off'},
	},
	{
		files: ['**/*.cjs'],
		languageOptions: {sourceType: 'commonjs'},
		rules: {'@typescript-eslint/no-require-imports': 'off'},
	},
);
