import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const boundary = (message, group) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }] }],
});

// Import cycles and the server modules' boundaries need the whole import graph: scripts/imports.ts checks
// them in `npm test` (docs/decisions/0490).

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'coverage/', 'web/public/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // Rules that need the types: the whole TypeScript project.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...pluginQuery.configs['flat/recommended'].rules,
      // zod and the schemas stay on the server (docs/decisions/0628): the browser takes types from them only.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react',
              importNames: ['lazy'],
              message:
                "Use lazyWithStyles (web/components/lazyWithStyles.ts): a lazy part needs Mantine's later styles (decision 0767).",
            },
          ],
          patterns: [
            { group: ['**/server/**'], message: 'The web app never imports the server.' },
            {
              group: [
                'zod',
                '**/common/validation.ts',
                '**/common/api/*.ts',
                '!**/common/api/index.ts',
                '!**/common/api/vocabulary.ts',
                '!**/common/api/wire.ts',
              ],
              allowTypeImports: true,
              message:
                'Schemas stay on the server: import rules from common/fieldRules.ts, values from common/api/index.ts (decision 0628).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests of the web run in node and may use the schemas.
    files: ['web/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['common/**/*.ts'],
    rules: boundary('common/ is shared by both sides and imports neither.', ['**/server/**', '**/web/**']),
  },
  {
    files: ['server/**/*.ts'],
    rules: boundary('The server never imports the web app.', ['**/web/**']),
  },
  {
    files: ['bench/**/*.{mjs,ts}', 'e2e/**/*.ts', 'scripts/**/*.{mjs,ts}', '*.config.ts', 'vitest.setup.ts'],
    rules: { 'no-console': 'off' },
  },
);
