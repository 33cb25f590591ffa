// @node-lines same: CI and test tooling, run by the machine's Node only
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

// The rules `npm run lint` applies, run over small trees written for each case: the check must
// refuse what it exists to refuse, not only pass on today's code.
const require = createRequire(import.meta.url);
const { forbidden } = require('../.dependency-cruiser.cjs') as { forbidden: IForbiddenRuleType[] };
const { CAPABILITY_FLOORS, DOOR_FLOORS, ROLES } = require('./structure-floors.cjs') as { CAPABILITY_FLOORS: string[][]; DOOR_FLOORS: string[][]; ROLES: string[] };

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

async function violationsOf(files: Record<string, string>): Promise<string[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'structure-check-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(['src'], { ruleSet: { forbidden }, validate: true, tsPreCompilationDeps: true, outputType: 'json' }, { extensions: ['.ts', '.tsx'] });
    const output = JSON.parse(result.output as string) as ICruiseResult;
    return output.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`).sort();
  } finally {
    process.chdir(cwd);
  }
}

describe('the structure check (npm run lint)', () => {
  it('passes a tree without cycles whose platform imports only itself', async () => {
    expect(
      await violationsOf({
        'src/server/platform/clock.ts': 'export const now = () => Date.now();\n',
        'src/server/capabilities/billing/ledger.ts': "import { now } from '../../platform/clock';\nexport const at = now();\n",
      }),
    ).toEqual([]);
  });

  it('refuses a door importing a higher one: the shared pieces (doors/) import no door, trpc/ neither mcp/ nor http/', async () => {
    expect(
      await violationsOf({
        'src/server/doors/errors.ts': "import { handler } from './trpc/init';\nexport const e = handler;\n",
        'src/server/doors/trpc/init.ts': "import { tool } from '../mcp/tool';\nexport const handler = tool;\n",
        'src/server/doors/mcp/tool.ts': "import { route } from '../http/routes';\nexport const tool = route;\n",
        'src/server/doors/http/routes.ts': 'export const route = 1;\n',
      }),
    ).toEqual([
      'doors-shared-imports-no-door: src/server/doors/errors.ts -> src/server/doors/trpc/init.ts',
      'floors-doors-mcp: src/server/doors/mcp/tool.ts -> src/server/doors/http/routes.ts',
      'floors-doors-trpc: src/server/doors/trpc/init.ts -> src/server/doors/mcp/tool.ts',
    ]);
  });

  it('refuses an import cycle, type-only imports included', async () => {
    expect(
      await violationsOf({
        'src/server/capabilities/billing/ledger.ts': "import { effect } from './ledger-effects';\nexport const ledger = () => effect;\n",
        'src/server/capabilities/billing/ledger-effects.ts': "import type { Ledger } from './lots';\nexport const effect = 1 as unknown as Ledger;\n",
        'src/server/capabilities/billing/lots.ts': "import { ledger } from './ledger';\nexport type Ledger = ReturnType<typeof ledger>;\n",
      }),
    ).toEqual([
      // Each cycle is reported once, from the first of its modules the check meets.
      'no-cycle: src/server/capabilities/billing/ledger-effects.ts -> src/server/capabilities/billing/lots.ts',
    ]);
  });

  it('refuses the platform importing a capability (config.ts included: the composition root adds its checks)', async () => {
    expect(
      await violationsOf({
        'src/server/platform/logger.ts': "import { settle } from '../capabilities/billing/settle';\nexport const log = settle;\n",
        'src/server/platform/config.ts': "import { settings } from '../capabilities/engine/backends/settings';\nimport { users } from '../capabilities/auth/users';\nexport const config = [settings, users];\n",
        'src/server/capabilities/engine/backends/settings.ts': 'export const settings = 1;\n',
        'src/server/capabilities/billing/settle.ts': 'export const settle = 1;\n',
        'src/server/capabilities/auth/users.ts': 'export const users = 1;\n',
      }),
    ).toEqual([
      'platform-imports-nothing-of-ours: src/server/platform/config.ts -> src/server/capabilities/auth/users.ts',
      'platform-imports-nothing-of-ours: src/server/platform/config.ts -> src/server/capabilities/engine/backends/settings.ts',
      'platform-imports-nothing-of-ours: src/server/platform/logger.ts -> src/server/capabilities/billing/settle.ts',
    ]);
  });

  it('refuses client code importing server code, shared code importing the server, and production importing tests', async () => {
    expect(
      await violationsOf({
        'src/components/keys/keys-screen.tsx': "import { db } from '../../server/platform/db';\nexport const screen = db;\n",
        'src/server/platform/db.ts': 'export const db = 1;\n',
        'src/shared/keys/permissions.ts': "import { db } from '../../server/platform/db';\nexport const permissions = db;\n",
        'src/server/capabilities/engine/run.ts': "import { scene } from '../../../../test/helpers/engine-scenes';\nexport const run = scene;\n",
        'test/helpers/engine-scenes.ts': 'export const scene = 1;\n',
      }),
    ).toEqual([
      'client-code-never-imports-server-code: src/components/keys/keys-screen.tsx -> src/server/platform/db.ts',
      'production-never-imports-tests: src/server/capabilities/engine/run.ts -> test/helpers/engine-scenes.ts',
      'shared-imports-only-shared: src/shared/keys/permissions.ts -> src/server/platform/db.ts',
    ]);
  });

  it('refuses a capability importing one of its own floor or a higher one, and a role importing a higher role', async () => {
    const low = CAPABILITY_FLOORS[0]!;
    const high = CAPABILITY_FLOORS.at(-1)![0]!;
    const [a, b] = low;
    expect(
      await violationsOf({
        [`src/server/capabilities/${a}/one.ts`]: `import { two } from '../${b}/two';\nexport const one = two;\n`,
        [`src/server/capabilities/${b}/two.ts`]: 'export const two = 2;\n',
        [`src/server/capabilities/${b}/three.ts`]: `import { four } from '../${high}/four';\nexport const three = four;\n`,
        [`src/server/capabilities/${high}/four.ts`]: `import { two } from '../${b}/two';\nexport const four = two;\n`,
        'src/server/capabilities/billing/ledger.ts': "import { route } from '../../doors/http/route';\nexport const ledger = route;\n",
        'src/server/doors/http/route.ts': "import { start } from '../../main/start';\nexport const route = start;\n",
        'src/server/main/start.ts': 'export const start = 1;\n',
      }),
    ).toEqual([
      `floors-capabilities-${a}: src/server/capabilities/${a}/one.ts -> src/server/capabilities/${b}/two.ts`,
      `floors-capabilities-${b}: src/server/capabilities/${b}/three.ts -> src/server/capabilities/${high}/four.ts`,
      'roles-capabilities-imports-only-lower-roles: src/server/capabilities/billing/ledger.ts -> src/server/doors/http/route.ts',
      'roles-doors-imports-only-lower-roles: src/server/doors/http/route.ts -> src/server/main/start.ts',
    ]);
  });

  it('places every folder of src/server in a role, and every capability and door folder on a floor', () => {
    const repo = path.resolve(import.meta.dirname, '..');
    const folders = (dir: string): string[] =>
      fs.readdirSync(path.join(repo, dir), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    expect(folders('src/server')).toEqual([...ROLES].sort());
    expect(folders('src/server/capabilities')).toEqual(CAPABILITY_FLOORS.flat().sort());
    expect(folders('src/server/doors')).toEqual(DOOR_FLOORS.flat().sort());
  });

  // What the rule above cannot see, Next's build refuses: a client module that reaches a module
  // importing `server-only`. Both guards hold only if client modules live where the rule looks
  // and the modules holding secrets carry the marker.
  it('finds every client module under the rule and every secret-holding module marked server-only', () => {
    const repo = path.resolve(import.meta.dirname, '..');
    const sources = (dir: string): string[] =>
      fs.readdirSync(path.join(repo, dir), { recursive: true, encoding: 'utf8' }).filter((file) => /[.]tsx?$/.test(file)).map((file) => path.join(dir, file));
    const clientModules = [...sources('app'), ...sources('src')].filter((file) => /^\s*['"]use client['"]/m.test(fs.readFileSync(path.join(repo, file), 'utf8')));
    expect(clientModules.length).toBeGreaterThan(20);
    expect(clientModules.filter((file) => !/^src\/(components|console-client)\//.test(file))).toEqual([]);
    const secretHolders = ['src/server/platform/db.ts', 'src/server/platform/config.ts', 'src/server/platform/secrets.ts', 'src/server/capabilities/storage/storage.ts', 'src/server/capabilities/storage/s3.ts'];
    expect(secretHolders.filter((file) => !/^import 'server-only';$/m.test(fs.readFileSync(path.join(repo, file), 'utf8')))).toEqual([]);
  });
});
