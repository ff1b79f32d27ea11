// ESLint flat config: @eslint/js recommended + typescript-eslint recommended, tuned for this codebase.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Globals of the runtimes we target, listed here rather than importing the transitive `globals` package.
// Only plain .js files need them: typescript-eslint turns `no-undef` off for TypeScript, where tsc checks names.
const runtimeGlobals = Object.fromEntries(
  [
    'console', 'process', 'Buffer', 'URL', 'URLSearchParams', 'fetch', 'Request', 'Response', 'Headers',
    'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'crypto', 'structuredClone',
    'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'globalThis',
    'WebSocket', 'EventSource', 'ReadableStream', 'WritableStream', 'TransformStream', 'Blob', 'FormData',
    'window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'history',
    'HTMLElement', 'Event', 'CustomEvent', 'requestAnimationFrame', 'Bun', 'Deno',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      'data/**',
      'dist/**',
      'proto/**',
      'coverage/**',
      'ui/dist/**',
      // The plugin kit's build (bundled JavaScript and declarations).
      'packages/*/dist/**',
      '.cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      // Code runs on Bun (Node-compatible), Deno and in the browser (ui/); the type checker, not
      // ESLint, guards which runtime APIs each folder may use.
      globals: runtimeGlobals,
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `declare module` augmentation of KernelHooks is the documented way plugins add hooks.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      // Empty interfaces are used as augmentable hook/registry declarations.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'always' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // Plain JS/CJS helper scripts (bench, config files).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.spec.ts', 'tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
