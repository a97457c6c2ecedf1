// The linter (`npm run lint`, a gate of `npm test`): typescript-eslint's type-aware rules over
// everything the typecheck covers. no-floating-promises and no-misused-promises are why it is
// type-aware: a store call whose promise is dropped still compiles, and on a network database the
// write it starts races the next one; a promise tested as a condition is always true
// (src/store/README.md).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'packages/*/dist/**', 'generated/**', 'node_modules/**', 'coverage/**', 'reports/**', '.stryker-tmp/**', 'examples/**', 'test/sdk/programs/**', 'clients/**/generated/**', 'clients/**/dist/**', 'clients/typescript/examples/**'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An async function without await still answers a promise, which an interface may demand
      // (every store method is async on both stores).
      '@typescript-eslint/require-await': 'off',
      // A rejection passes on what failed, which a caller did not always create as an Error.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests read answers through supertest, whose bodies are `any` by design; they assert whole
    // shapes with toEqual rather than narrowing each field.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
