// ESLint (flat config): promise misuse everywhere in the service, and the workflow sandbox's rules for workflows/.
// Formatting is Prettier's job and the layers are test/architecture's, so neither is repeated here.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

// The service's own code; client/ is a package of its own, and tests and the benchmark may be looser.
const SOURCES = ['api', 'domain', 'platform', 'activities', 'workflows', 'worker', 'db', 'scripts'].map(
  (dir) => `${dir}/**/*.ts`,
);

// The console's code, which runs in the browser (console/ is otherwise a package of its own).
const CONSOLE = ['console/src/**/*.ts', 'console/src/**/*.tsx'];

// Everything TypeScript that runs: the service, its tests, the benchmark and the console. The regular-expression
// rules read only the syntax tree, so they need no type information and cover the looser folders too.
const EVERYWHERE = [...SOURCES, 'test/**/*.ts', 'bench/**/*.ts', ...CONSOLE];

const SANDBOX =
  "Workflow code runs in Temporal's deterministic sandbox: it may import only @temporalio/workflow, " +
  '@temporalio/common and files of workflows/; Node built-ins and other packages belong in activities.';

export default defineConfig(
  { ignores: ['**/node_modules/**', 'dist/**', 'client/**', 'console/*', '!console/src', '.data/**'] },
  {
    files: SOURCES,
    languageOptions: {
      parser: tseslint.parser,
      // type-aware: the promise rules need the types of tsconfig.json
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // a promise nobody awaits loses its error and its ordering (an activity, a signal, a commit)
      '@typescript-eslint/no-floating-promises': 'error',
      // an async function where a callback's result is ignored (event handlers, Array#forEach, if (promise))
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: EVERYWHERE,
    // declaration files hold types only, and their own disable comments name rules configured elsewhere
    ignores: ['**/*.d.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { regexp },
    rules: {
      // A pattern that can backtrack super-linearly turns one long input into seconds of CPU on the event loop,
      // which every tenant shares (docs/architecture.md#regular-expressions).
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    files: [...SOURCES, ...CONSOLE],
    rules: {
      // A pattern held in a variable may be a caller's, and then no lint can see whether it backtracks: it runs on
      // RE2 (re2js), whose matching time is linear whatever the pattern (docs/architecture.md#regular-expressions).
      // A pattern built from the code's own constants is a template literal, which this rule lets be.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ":matches(NewExpression, CallExpression)[callee.name='RegExp'] > :first-child:not(Literal, TemplateLiteral)",
          message: "A pattern from a variable may be a caller's: run it on RE2 (re2js), not on RegExp.",
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      // type-only imports too: workflows/ is the vocabulary both sides import, so it leans on no one else's types
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\.|@temporalio/(workflow|common)(/|$))', message: SANDBOX }] },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'require', '__dirname', '__filename', 'fetch', 'setInterval', 'setImmediate'].map(
          (name) => ({ name, message: `${name} does not exist in the workflow sandbox; I/O belongs in activities.` }),
        ),
        ...['WeakRef', 'FinalizationRegistry'].map((name) => ({
          name,
          message: `${name} throws in the workflow sandbox: garbage collection is not deterministic.`,
        })),
      ],
    },
  },
);
