// ESLint for Ranklab (`npm run lint`, part of `npm test`): typescript-eslint's type-aware rules on the product code,
// lighter sets on tests, benchmarks and scripts. Each file is typed by its layer's tsconfig (the nearest one).
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.venv-test/**', 'test-results/**', 'bench/results/**'] },
  eslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  // The product: every type-aware rule of the recommended set, less the few that are wrong here.
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    rules: {
      // The `!` on indexed reads are kept for noUncheckedIndexedAccess (issue 29); this rule would strip them.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // An abort rejects with signal.reason (an AbortSignal's own DOMException, or what the caller gave abort()).
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // Command handlers and interface methods stay async without an await: a throw inside becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // Optional heavy runtimes (transformers, onnxruntime-web, wabt) load lazily with require() in the CJS bundle.
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  // Parsed JSON that the JSON schema has already validated is walked untyped here (config defaults, sweep settings).
  {
    files: ['src/core/config/defaults.ts', 'src/core/config/parse.ts', 'src/core/tuning/parameters.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  // The Lanczos coefficients are written as published, with more digits than a double holds.
  { files: ['src/core/experiment/stats/student-t.ts'], rules: { 'no-loss-of-precision': 'off' } },
  // Tests, benchmarks and scripts: the syntax-only set, plus the type-aware rules about promises.
  {
    files: ['test/**/*.ts', 'bench/**/*.{ts,mts}', 'scripts/**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      // node:test's describe/it/test return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Tests read untyped JSON (CLI output, fixtures, HTTP bodies) and poke at internals.
      '@typescript-eslint/no-explicit-any': 'off',
      // Expected output is written as printed, aligned columns included.
      'no-regex-spaces': 'off',
    },
  },
  // The end-to-end drivers hand callbacks to the browser page (playwright's evaluate), which run there.
  { files: ['test/e2e/**/*.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  // Everywhere: tsc's noUnusedLocals/noUnusedParameters report unused names (one source of truth; `_x` and rest
  // siblings are its idioms too); control characters are matched on purpose (ids, XML escaping, CSV).
  {
    rules: {
      '@typescript-eslint/no-unused-vars': 'off',
      'no-unused-vars': 'off',
      'no-control-regex': 'off',
    },
  },
  // Plain JavaScript (build scripts, benchmarks, configs): no types to check.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
