/**
 * The house's structure check (`npm run lint`). src/server is built in floors, and an import
 * only ever goes down:
 *
 *   main/          the composition root: wires doors, jobs and capabilities at start
 *   doors/         http (edge and /v1), mcp, trpc (console): thin, they call capabilities
 *   tools/         operator tools behind one call each (migrations, backup, seed)
 *   jobs/          job definitions, schedules and the maintenance that serves several capabilities
 *   capabilities/  one folder per capability, themselves in floors (CAPABILITY_FLOORS below)
 *   platform/      the ground floor: config, db, logger, clock, ids, errors, the jobs port
 *
 * A capability imports only capabilities of lower floors, so no two capabilities import each
 * other; where a lower one must reach a higher one, the composition root registers a hook or
 * an event at start. Beside the floors: no import cycle anywhere in src/ (type-only imports
 * included: they couple modules just the same), the console's client code reaches the server
 * only through src/shared, Next's bundle imports the server's types only, and production code
 * never imports tests or benchmarks. (`server-only` in db, config, secrets and storage makes
 * Next's build refuse a client import of them as well.)
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports -- dependency-cruiser loads its configuration as CommonJS
const { CAPABILITY_FLOORS, DOOR_FLOORS, ROLES } = require('./scripts/structure-floors.cjs');

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One rule per folder: nothing from its own floor or a higher one. */
function floorRules(role, floors) {
  return floors.flatMap((floor, index) =>
    floor.map((folder) => {
      const above = floors.slice(index).flat().filter((other) => other !== folder);
      return {
        name: `floors-${role}-${folder}`,
        severity: 'error',
        comment: `${role}/${folder} is on floor ${index + 1} of ${role}: it may import only ${role} folders of lower floors (see the floors in .dependency-cruiser.cjs).`,
        from: { path: `^src/server/${role}/${escape(folder)}/`, pathNot: '[.]test[.]tsx?$' },
        to: { path: `^src/server/${role}/(${above.map(escape).join('|')})/` },
      };
    }),
  );
}
// The platform has its own, stricter rule below (it imports nothing of ours at all).
const roleRules = ROLES.slice(0, -1).flatMap((role, index) => (role === 'platform' ? [] : [{
  name: `roles-${role}-imports-only-lower-roles`,
  severity: 'error',
  comment: `src/server/${role} is below ${ROLES.slice(index + 1).join(', ')}: it never imports them (wire it in main/ instead).`,
  from: { path: `^src/server/${role}/`, pathNot: '[.]test[.]tsx?$' },
  to: { path: `^src/server/(${ROLES.slice(index + 1).join('|')})/` },
}]));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...roleRules,
    ...floorRules('capabilities', CAPABILITY_FLOORS),
    ...floorRules('doors', DOOR_FLOORS),
    {
      name: 'doors-shared-imports-no-door',
      severity: 'error',
      comment: 'The files of doors/ itself (errors, reply, body, client IP…) are what every door shares: they import no door (http/, mcp/, trpc/).',
      from: { path: '^src/server/doors/[^/]+$', pathNot: '[.]test[.]tsx?$' },
      to: { path: `^src/server/doors/(${DOOR_FLOORS.flat().map(escape).join('|')})/` },
    },
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
