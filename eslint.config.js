import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const boundary = (message, group) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }] }],
});

const folders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * Feature modules own their code (docs/decisions/0402): a server module imports no other module, only
 * modules/shared; modules/shared imports no module. Every folder of server/modules is a module, so a new
 * one is covered as soon as it exists.
 */
const serverModules = folders('./server/modules/').filter((name) => name !== 'shared');
const serverZones = [
  ...serverModules.map((name) => ({
    target: `./server/modules/${name}`,
    from: './server/modules',
    except: [`./${name}`, './shared'],
    message: 'A module imports no other module: move what both need into server/modules/shared/.',
  })),
  {
    target: './server/modules/shared',
    from: './server/modules',
    except: ['./shared'],
    message: 'modules/shared serves the modules and imports none of them.',
  },
];

export default tseslint.config(
  {
    ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'coverage/', 'web/public/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      // Imports name their files with the extension; dependencies are parsed as TypeScript to follow them.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
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
      ...boundary('The web app never imports the server.', ['**/server/**']),
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: boundary('common/ is shared by both sides and imports neither.', ['**/server/**', '**/web/**']),
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      ...boundary('The server never imports the web app.', ['**/web/**']),
      'import-x/no-restricted-paths': ['error', { zones: serverZones }],
    },
  },
  {
    // Tests may reach across modules to check what one call does to another's rows.
    files: ['server/**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    files: ['bench/**/*.ts', 'e2e/**/*.ts', 'scripts/**/*.{mjs,ts}', '*.config.ts', 'vitest.setup.ts'],
    rules: { 'no-console': 'off' },
  },
);
