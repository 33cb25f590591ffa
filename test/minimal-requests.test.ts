// @node-lines same: our /v1 defaults for minimal requests; the HTTP edge runs under both lines in test/hostile-input.test.ts, the engine's threads and encoders in src/server/capabilities/engine/builtin/offthread.test.ts and src/server/capabilities/engine/builtin/encode.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * A request with only the fields the spec shows succeeds; the fields it leaves
 * "not shown" take the documented defaults (docs/operations.md, "Hardening and scale-out").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, testIp, type TestOrg } from './support';
import { expectError, noiseImage, post, serve, waitForEnd } from './images-support';

const ip = testIp();
let org: TestOrg;
let image: string;

beforeAll(async () => {
  org = await createTestOrg();
  image = serve(await noiseImage(320, 240), 'jpg');
});

describe('minimal creation requests', () => {
  it.each([
    ['/v1/decorations', 'decoration', { quality: '2k', scale: null, style: null, categories: null }, [2048, 1536]],
    ['/v1/renders', 'render', { quality: '2k', scale: null }, [2048, 1536]],
    ['/v1/upscales', 'upscale', { quality: null, scale: 'x2' }, [640, 480]],
  ] as const)('%s with image alone succeeds with the defaults', async (route, type, input, size) => {
    const res = await post(route, org.testKey, ip, { image });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const gen = res.body as { id: string; type: string; status: string; input: Record<string, unknown> };
    expect(gen.type).toBe(type);
    expect(gen.input).toEqual(input);
    const done = gen.status === 'succeeded' ? gen : await waitForEnd(gen.id, org.testKey, ip);
    expect(done.status).toBe('succeeded');
    const output = (done as unknown as { output: { width: number; height: number }[] }).output[0]!;
    expect([output.width, output.height]).toEqual(size);
  });

  it('a decoration with a style keeps it; an unknown style is still refused', async () => {
    const ok = await post('/v1/decorations', org.testKey, ip, { image, style: 'scandinavian', background: true });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    expect((ok.body as { input: { style: string } }).input.style).toBe('scandinavian');
    expectError(await post('/v1/decorations', org.testKey, ip, { image, style: 'no_such_style', background: true }), 400, 'parameter_invalid', 'style');
  });

  it('edits keep quality required (the spec says so)', async () => {
    expectError(await post('/v1/edits', org.testKey, ip, { image, mode: 'prompt', prompt: 'Paint the walls white', background: true }), 400, 'parameter_invalid', 'quality');
  });
});
