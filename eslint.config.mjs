import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const DOORS = {
  group: ['@/server/doors/**', '@/app/*', '**/doors/**', '**/http/*', '**/trpc/*', '**/mcp/*', '**/app/*'],
  message: 'Capability folders must not import from a door (doors/, http/, trpc/, mcp/, app/): move the shared piece into the service layer.',
};

const DOOR_ERRORS = { name: '@/server/doors/errors', message: 'ApiError is for the doors (doors/, http/, trpc/, mcp/): throw DomainError from @/server/platform/errors.' };
/**
 * Folders without React: the server, the CLI, what the server shares with the console, tests,
 * benchmarks, scripts, the SDK and the e2e. React's rules (react, react-hooks, jsx-a11y) have
 * nothing to find there, and react-hooks' compiler-based rules compile every function they see:
 * over these folders they were most of the lint's time. A React import there is refused, so a
 * component or hook cannot land where those rules do not look.
 */
const WITHOUT_REACT = ['src/server/**', 'src/cli/**', 'src/shared/**', 'test/**', 'bench/**', 'scripts/**', 'sdk/**', 'e2e/**'];
// One module graph per process (docs/architecture.md): state lives in its module, never in a
// registry on globalThis that would paper over a second copy of the module: no `globalThis as
// unknown as`, no property set on globalThis (directly or through a cast), no Symbol.for key.
// Reading globalThis (is there a `window`?) stays allowed.
const NO_GLOBAL_REGISTRY = {
  selector: [
    "TSAsExpression[expression.type='TSAsExpression'][expression.expression.name='globalThis']",
    "AssignmentExpression > MemberExpression.left[object.name='globalThis']",
    "AssignmentExpression > MemberExpression.left[object.type='TSAsExpression'][object.expression.name='globalThis']",
    "CallExpression[callee.object.name='Symbol'][callee.property.name='for']",
  ].join(', '),
  message: 'Keep the state in its module: the server is one module graph per process (docs/architecture.md).',
};
const REACT_RULES = /^(react|react-hooks|jsx-a11y)\//;
const reactRulesOff = Object.fromEntries(
  nextVitals.flatMap((c) => Object.keys(c.rules ?? {})).filter((rule) => REACT_RULES.test(rule)).map((rule) => [rule, 'off']),
);

export default [
  { ignores: ['.next/**', 'dist/**', 'node_modules/**', 'src/generated/**', 'sdk/dist/**', 'sdk/src/generated/**', '.data/**', 'gallery/**', 'bench/results/**', 'next-env.d.ts'] },
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      'no-restricted-syntax': ['error', NO_GLOBAL_REGISTRY],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'import/no-anonymous-default-export': 'off',
      // Node 20 can garbage-collect a timeout combined with AbortSignal.any, and the deadline
      // never fires: every deadline is built by src/server/platform/deadline.ts.
      'no-restricted-properties': [
        'error',
        { object: 'AbortSignal', property: 'any', message: 'Use deadline() from @/server/platform/deadline (AbortSignal.any can lose its timeout to the GC on Node 20).' },
        { object: 'AbortSignal', property: 'timeout', message: 'Use deadline() or timeoutSignal() from @/server/platform/deadline.' },
      ],
    },
  },
  {
    // Business rules live once, door-neutral: capability folders never reach into a door
    // (the /v1 wrapper, tRPC, MCP, Next routes). The composition root (main/) wires the doors.
    // Tests may check what a door renders (the status of a refusal), so they are exempt.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/doors/**', 'src/server/main/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            DOORS,
            {
              group: ['@/server/platform/jobs/providers/*', '**/jobs/providers/*'],
              message: 'Capabilities trigger jobs through jobs() (@/server/platform/jobs/client) and never know the provider.',
            },
          ],
        },
      ],
    },
  },
  {
    // The jobs folder binds the handlers (and serves Inngest's endpoint); it still never reaches into a door.
    files: ['src/server/jobs/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [DOORS] }] },
  },
  {
    // The HTTP error (status, headers) is the doors' rendering of a DomainError: the CLI, the
    // console's client code and scripts throw or read DomainError, never an HTTP status.
    files: ['src/cli/**', 'src/components/**', 'src/console-client/**', 'src/console-server/**', 'scripts/**', 'bench/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [DOOR_ERRORS],
        },
      ],
    },
  },
  {
    // The app's links prefetch on intent (hover, focus, touch), not on sight: one Link does it.
    files: ['app/**', 'src/components/**', 'src/console-client/**', 'src/console-server/**'],
    ignores: ['src/components/ui/link.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            DOOR_ERRORS,
            { name: 'next/link', message: 'Use Link from @/components/ui/link: it prefetches on intent, not every link in view (docs/console.md, "Prefetch on intent").' },
          ],
        },
      ],
    },
  },
  {
    files: WITHOUT_REACT,
    rules: {
      ...reactRulesOff,
      'no-restricted-syntax': [
        'error',
        NO_GLOBAL_REGISTRY,
        {
          selector: 'ImportDeclaration[source.value=/^react(-dom)?($|\\/)/], ImportExpression[source.value=/^react(-dom)?($|\\/)/]',
          message: 'No React outside the console (app/, src/components, src/console-client, src/console-server): React\'s lint rules do not run here (eslint.config.mjs).',
        },
      ],
    },
  },
];
