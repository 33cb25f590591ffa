/**
 * The house's structure check (`npm run lint`): no import cycle anywhere in src/ (type-only
 * imports included: they couple modules just the same), the ground floor (src/server/platform)
 * imports nothing of ours, the console's client code reaches the server only through
 * src/shared, Next's bundle imports the server's types only, and production code never
 * imports tests or benchmarks, and the doors import one way (http → mcp → trpc → doors). (`server-only` in db,
 * config, secrets and storage makes Next's build refuse a client import of them as well.)
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'An import cycle: break it (an event or hook registered at start, or the shared piece in its own module).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'platform-imports-nothing-of-ours',
      severity: 'error',
      comment: 'src/server/platform is the ground floor: config, db, clock, ids, errors, logger. Wiring belongs in the composition root.',
      from: { path: '^src/server/platform/', pathNot: '[.]test[.]ts$' },
      to: { path: '^src/', pathNot: ['^src/server/platform/', '^src/generated/'] },
    },
    {
      name: 'shared-imports-only-shared',
      severity: 'error',
      comment: 'src/shared holds what the browser and the server both load (schemas, constants): it imports nothing of the server.',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: ['^src/shared/', '^src/generated/prisma/enums[.]ts$'] },
    },
    {
      name: 'client-code-never-imports-server-code',
      severity: 'error',
      comment: 'The console UI (src/components, src/console-client) takes schemas from src/shared; server modules stay on the server (types excepted: they vanish at build).',
      from: { path: '^src/(components|console-client)/', pathNot: '[.]test[.]tsx?$' },
      to: { path: '^src/server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'next-bundle-reaches-the-server-at-run-time',
      severity: 'error',
      comment:
        "Next's bundle (app/, proxy.ts, src/console-server) never bundles server code: it imports its types only and calls it through src/console-server/server.ts, which loads the compiled server at run time (one instance of every module per process).",
      from: { path: '^(app/|proxy[.]ts$|src/console-server/)', pathNot: '[.]test[.]tsx?$' },
      to: { path: '^src/(server|cli)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'doors-import-one-way',
      severity: 'error',
      comment:
        'The doors import one way: http/ (the route table, the edge, /v1) → mcp/ → trpc/ → doors/ (the pieces every door shares: errors, reply, body, client IP). A lower door never imports a higher one.',
      from: { path: '^src/server/(mcp|trpc|doors)/', pathNot: '[.]test[.]ts$' },
      to: { path: '^src/server/doors/http/' },
    },
    {
      name: 'doors-import-one-way',
      severity: 'error',
      from: { path: '^src/server/(trpc|doors)/', pathNot: '[.]test[.]ts$' },
      to: { path: '^src/server/doors/mcp/' },
    },
    {
      name: 'doors-import-one-way',
      severity: 'error',
      from: { path: '^src/server/doors/', pathNot: '[.]test[.]ts$' },
      to: { path: '^src/server/doors/trpc/' },
    },
    {
      name: 'production-never-imports-tests',
      severity: 'error',
      comment: 'Test scaffolding (test/, bench/) stays out of production code.',
      from: { path: '^(src|app)/', pathNot: '[.]test[.]tsx?$' },
      to: { path: '^(test|bench|e2e)/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    exclude: { path: ['^src/generated/', '^[.]next/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    skipAnalysisNotInRules: true,
  },
};
