// @node-lines same: npm's packing of the SDK
// @worker-process shared: npm pack and tsc run to their end (execFile) against the shared server; it starts no server and sets no environment
/**
 * @roomtone/sdk as an outside app gets it before it is published: `npm pack` in sdk/ (its
 * `prepack` builds), then `npm install ./roomtone-sdk-0.1.0.tgz` in an empty project outside the
 * repository, which calls the real server, runs the `roomtone-sdk` command and type-checks
 * against the installed declarations. The install is offline: the SDK's one dependency
 * (standardwebhooks) and its own are packed from the repository's node_modules, as a registry
 * would serve them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, createTestOrg, testIp } from './support';
import { noiseImage, serve } from './images-support';

const root = path.resolve(import.meta.dirname, '..');
const sdkDir = path.join(root, 'sdk');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

let work: string;
let tarball: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'roomtone-sdk-pack-'));
  // A checkout of sdk/ without its build (dist/ is not in git), so `prepack` must build it; a
  // copy, so the build never rewrites the sdk/dist other test files are reading.
  const checkout = path.join(work, 'checkout');
  fs.mkdirSync(checkout);
  for (const entry of ['src', 'bin', 'package.json', 'README.md', 'tsconfig.json', 'tsconfig.build.json']) fs.cpSync(path.join(sdkDir, entry), path.join(checkout, entry), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(checkout, 'node_modules'));
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], checkout)) as { filename: string }[];
  tarball = path.join(work, packed[0]!.filename);
}, 300_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the packed SDK', () => {
  it('holds the built code, its declarations and the sources its maps point at, and nothing else', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').map((f) => f.replace(/^package\//, ''));
    expect(path.basename(tarball)).toBe('roomtone-sdk-0.1.0.tgz');
    for (const file of ['package.json', 'README.md', 'bin/roomtone-sdk.js', 'dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'src/index.ts']) expect(listing).toContain(file);
    expect(listing.filter((f) => !/^(bin|dist|src)\//.test(f) && !['package.json', 'README.md'].includes(f))).toEqual([]);
    expect(listing.some((f) => f.startsWith('test/'))).toBe(false);
    // Every source map resolves to a file in the package.
    const unpacked = path.join(work, 'unpacked');
    fs.mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
    const maps = listing.filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(10);
    for (const map of maps) {
      const { sources } = JSON.parse(fs.readFileSync(path.join(unpacked, 'package', map), 'utf8')) as { sources: string[] };
      for (const source of sources) expect(fs.existsSync(path.resolve(path.dirname(path.join(unpacked, 'package', map)), source)), `${map} -> ${source}`).toBe(true);
    }
  });

  it('installs into an empty project outside the repository and calls the real server', async () => {
    const app = path.join(work, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'outside-app', version: '1.0.0', private: true, type: 'module' }));
    const deps = ['standardwebhooks', '@stablelib/base64', 'fast-sha256'].map((name) => {
      const out = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work, path.join(root, 'node_modules', name)], work)) as { filename: string }[];
      return path.join(work, out[0]!.filename);
    });
    npm(['install', '--offline', ...deps, tarball], app);
    expect(fs.realpathSync(path.join(app, 'node_modules', '@roomtone', 'sdk')).startsWith(app)).toBe(true);

    const org = await createTestOrg();
    const imageUrl = serve(await noiseImage(160, 120, 'jpeg'), 'jpg');
    fs.writeFileSync(
      path.join(app, 'main.mjs'),
      `import Roomtone from '@roomtone/sdk';
const ip = process.env.TEST_IP;
const client = new Roomtone({ fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, 'x-forwarded-for': ip } }) });
const { data, response } = await client.upscales.create({ image: process.env.IMAGE_URL, scale: 'x2' }).withResponse();
const balance = await client.balance.retrieve();
console.log(JSON.stringify({ status: data.status, width: data.output[0]?.width, requestId: response.requestId, balance: balance.object }));
`,
    );
    const output = execFileSync(process.execPath, ['main.mjs'], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, ROOMTONE_API_KEY: org.testKey, ROOMTONE_BASE_URL: baseUrl, TEST_IP: testIp(), IMAGE_URL: imageUrl },
    });
    expect(JSON.parse(output.trim())).toMatchObject({ status: 'succeeded', width: 320, requestId: expect.stringMatching(/^req_/), balance: 'balance' });

    // The command npm links, and the installed declarations type-check a consumer.
    expect(execFileSync(path.join(app, 'node_modules', '.bin', 'roomtone-sdk'), ['--version'], { encoding: 'utf8' }).trim()).toBe('0.1.0');
    fs.writeFileSync(
      path.join(app, 'check.ts'),
      `import Roomtone, { type Generation, type MaskColor } from '@roomtone/sdk';\nconst client = new Roomtone({ apiKey: 'rt_test_x' });\nconst color: MaskColor = '#FF0000';\nexport const run = (): Promise<Generation> => client.edits.create({ image: 'file_abc', mode: 'mask', quality: '1k', mask: './m.png', layers: [{ mask_color: color, action: 'remove' }] });\n`,
    );
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [path.join(root, 'node_modules', '@types')] }, files: ['check.ts'] }));
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
  }, 300_000);
});
