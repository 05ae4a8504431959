// Lint rules of the project (npm run lint): typescript-eslint's recommended rules, no import
// cycles (here for value imports; `npm run lint:cycles` (dpdm) also refuses type-only ones), and the boundaries of docs/ARCHITECTURE.md: core imports no domain, chat and finance
// never import each other, and no module imports another module's repository (types excepted).
// The browser apps (web/): eslint-plugin-vue's recommended rules, and web/ imports nothing from
// the server (src/): its types come from the generated API documents.
import js from '@eslint/js';
import vue from 'eslint-plugin-vue';
import prettier from 'eslint-config-prettier';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Restricted import patterns for a set of files. */
const restrict = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts'],
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

const otherRepository = {
  group: [
    '../*/*.repository.js',
    '../../*/*.repository.js',
    '../modules/*/*.repository.js',
    '../../modules/*/*.repository.js',
  ],
  allowTypeImports: true,
  message: "Modules talk through services: call the other module's service, not its repository.",
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'web/shared/api/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import/extensions': ['.ts', '.js'],
    },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  // Rules that need the types (typescript-eslint's type-checked rules), on the server's sources.
  {
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/api-types.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // `any` outside tests only where a line says why (a database whose schema is not known is
  // core/db/untyped.ts's UntypedDb).
  { files: ['src/**/*.ts'], ignores: ['**/*.test.ts'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  restrict(
    ['src/core/**/*.ts'],
    [{ group: ['**/chat/**', '**/finance/**'], message: 'core knows no domain: it imports neither chat nor finance.' }],
  ),
  restrict(
    ['src/chat/**/*.ts'],
    [{ group: ['**/finance/**'], message: 'chat and finance never import each other.' }, otherRepository],
  ),
  restrict(
    ['src/finance/**/*.ts'],
    [{ group: ['**/chat/**'], message: 'chat and finance never import each other.' }, otherRepository],
  ),
  // The browser apps: Vue single-file components parsed with TypeScript, browser globals.
  ...vue.configs['flat/recommended'],
  {
    files: ['web/**/*.vue', 'web/**/*.ts'],
    ignores: ['web/vite.config.ts', 'web/build/**'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' },
    },
    rules: {
      // The import plugin's resolver reads the server's tsconfig; the apps' cycles are few and caught in review.
      'import/no-cycle': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', '../../src/*', '../../../src/*'],
              message:
                'The browser apps import nothing from the server: API types come from web/shared/api (npm run api-types).',
            },
          ],
        },
      ],
    },
  },
  // The website chat (web/widget, web/sdk) is small and embedded in other sites: it imports only
  // web/shared and its own files; the frame's one package is Preact, the loader has none.
  ...[
    { files: ['web/widget/**/*.ts', 'web/widget/**/*.tsx'], allowed: '|preact(/.*)?$' },
    { files: ['web/sdk/**/*.ts'], allowed: '' },
  ].map(({ files, allowed }) => ({
    files,
    ignores: ['**/*.test.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?!\\./[^/]+$|\\.\\./shared/${allowed})`,
              message: 'The website chat imports only web/shared, its own files and (the frame) Preact.',
            },
          ],
        },
      ],
    },
  })),
  prettier,
);
