import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Imports flow one way (STYLE.md): domain and contract depend on nothing of ours; machines and
// workers on those two; features on all of them; app on features. Features do not import each other.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'wasm-core/assembly/**', 'wasm-core/build/**', '.test-data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    settings: {
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
      'import/ignore': ['node_modules'],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'import/no-cycle': ['error', { maxDepth: 10, ignoreExternal: true }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: ['./src/domain', './src/contract'], from: ['./src/app', './src/features', './machines', './workers', './server'] },
            { target: ['./machines', './workers'], from: ['./src/app', './src/features', './server'] },
            { target: ['./src/features'], from: ['./src/app', './server'] },
            { target: ['./src/shared'], from: ['./src/app', './src/features', './server'] },
            { target: ['./src', './machines', './workers', './wasm-core'], from: ['./server'] },
            // the meter reader's app (src/reader, a second entry) is an edge like src/app: nothing imports it, and it does not import the monitoring app (its theme aside)
            { target: ['./src/app', './src/features', './src/shared', './src/domain', './src/contract', './machines', './workers'], from: './src/reader' },
            { target: './src/reader', from: './src/app', except: ['./theme.ts'] },
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`],
            })),
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'react', message: 'Only src/features and src/app use React.' }] },
      ],
    },
  },
  {
    files: ['src/features/**', 'src/app/**', 'src/reader/**', 'src/shared/**', 'tests/**', 'bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
