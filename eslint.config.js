// Lint enforces the process layers (see ARCHITECTURE.md):
//   electron/common   runs anywhere: no Node, no Electron, no core or shell
//   electron/core, electron/cli   plain Node: no Electron, no shell, no renderer
//   electron/shell, electron/main.ts, electron/preload.ts   Electron shell: may use core and common
//   renderer          browser only: no Node, no Electron, nothing from electron/ but common
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
// jsx-a11y's maintained fork for ESLint 10 (the original declares ESLint 9 at most).
import jsxA11y from 'eslint-plugin-jsx-a11y-x';

const noElectron = {
  name: 'electron',
  message: 'Only the Electron shell (electron/shell, main.ts, preload.ts) may import electron.',
};
const nodeOnlyInMain = { group: ['node:*'], message: 'Node modules run only in the main process (electron/core).' };
const restrict = (paths, patterns) => ['error', { paths, patterns }];

export const layerRules = [
  {
    files: ['electron/common/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [
          noElectron,
          ...builtinModules.map((name) => ({ name, message: 'electron/common runs in the renderer too: no Node.' })),
        ],
        [
          nodeOnlyInMain,
          {
            group: ['**/core/**', '**/shell/**', '**/cli/**', '**/renderer/**'],
            message: 'electron/common depends on nothing but itself.',
          },
        ],
      ),
    },
  },
  {
    files: ['electron/core/**/*.ts', 'electron/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [noElectron],
        [
          {
            group: ['**/shell/**', '**/renderer/**', '**/main.ts', '**/preload.ts'],
            message: 'The core is plain Node: it knows nothing of the shell or the UI.',
          },
        ],
      ),
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': restrict(
        [noElectron, ...builtinModules.map((name) => ({ name, message: 'The renderer is browser code: no Node.' }))],
        [
          nodeOnlyInMain,
          {
            group: [
              '**/electron/core/**',
              '**/electron/shell/**',
              '**/electron/cli/**',
              '**/electron/main*',
              '**/electron/preload*',
            ],
            message: 'The renderer reaches main only through the contract (electron/common).',
          },
        ],
      ),
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  ...layerRules,
  {
    // React's rules of hooks and the effect dependencies, on the renderer's components.
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Accessibility of the markup: labels, roles, keyboard reach, alternatives to pictures.
    files: ['renderer/**/*.tsx'],
    ...jsxA11y.configs.recommended,
  },
  {
    // The service's stores are asynchronous (SQLite or PostgreSQL): a store call not awaited is a write
    // that may land after its transaction, or an error nobody hears.
    files: ['electron/core/service/**/*.ts', 'electron/core/storage/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
