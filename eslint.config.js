// ESLint: the recommended JavaScript, TypeScript (type-aware), React hooks and Astro rules over the whole code base, and
// the rule that imports run one way.
import path from 'node:path';
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { importAllowed } from './scripts/import-layers.mjs';

// Imports run one way: the layers, top to bottom, are the table in scripts/import-layers.mjs (scripts/import-graph.ts counts
// against the same table), so the rule and the count cannot drift apart.
const importsRunOneWay = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Imports run one way: entry → routes → operations → features → texture core → platform → image job queue → configuration → shared (scripts/import-layers.mjs)',
    },
    schema: [],
  },
  create(context) {
    const from = path
      .relative(import.meta.dirname, context.filename)
      .split(path.sep)
      .join('/');
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
      if (importAllowed(from, to)) return;
      context.report({
        node: node.source,
        message: `${from} may not import ${to}: imports run one way (see scripts/import-layers.mjs).`,
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '.astro/',
      'node_modules/',
      '.tools/',
      'data/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/**/*.{ts,tsx,astro}'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx,astro}'],
    plugins: { layers: { rules: { 'imports-run-one-way': importsRunOneWay } } },
    rules: { 'layers/imports-run-one-way': 'error' },
  },
  {
    files: [
      'server/**',
      'auth-server/**',
      'tests/**',
      'support/**',
      'bench/**',
      'scripts/**',
      'bin/**',
      '*.{js,mjs,ts}',
    ],
    languageOptions: { globals: globals.node },
  },
);
