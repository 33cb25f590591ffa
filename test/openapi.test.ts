// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
import { describe, expect, it } from 'vitest';
import { api, baseUrl, createKey, createTestOrg, testIp } from './support';

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3 document of every /v1 route with the real error envelope', async () => {
    const res = await api<Record<string, any>>('/v1/openapi.json', { ip: testIp() }); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info).toMatchObject({ title: 'Roomtone API', version: expect.any(String) });
    const paths = Object.keys(doc.paths);
    for (const p of ['/generations', '/generations/{id}', '/generations/{id}/cancel', '/styles', '/edit-materials', '/edit-material-categories']) {
      expect(paths).toContain(p);
    }
    for (const p of ['/renders', '/edits', '/decorations', '/upscales']) {
      expect(paths).toContain(p);
      expect(doc.paths[p].post.responses['202'], `${p} answers 202 in progress`).toBeDefined();
    }
    expect(doc.paths['/generations/{id}'].get.responses['202']).toBeUndefined();
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    // The generation's progress: a fraction, or null while the engine cannot tell.
    const progress = doc.components.schemas.Generation.properties.progress;
    expect(progress.description).toContain('Fraction done');
    expect(progress.anyOf).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'number', minimum: 0, maximum: 1 }), { type: 'null' }]));
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Every operation: an operationId, a 200 response, and errors in the envelope (no tRPC shapes).
    const refs = new Set<string>();
    for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) { // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const [method, op] of Object.entries<any>(item)) { // eslint-disable-line @typescript-eslint/no-explicit-any
        expect(['get', 'post'], `${method} ${p}`).toContain(method);
        expect(op.responses['200']).toBeDefined();
        expect(op.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
        expect(JSON.stringify(op.responses)).not.toContain('error.BAD_REQUEST');
      }
    }
    // Every $ref resolves inside the document.
    JSON.stringify(doc, (key, value) => {
      if (key === '$ref') refs.add(value as string);
      return value;
    });
    for (const ref of refs) {
      const target = (ref as string).replace(/^#\//, '').split('/').reduce<any>((node, part) => node?.[part], doc); // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(target, ref).toBeDefined();
    }
  });
});

describe('what the OpenAPI document says about each route', () => {
  it('names the permission each route needs, truthfully: without it 403 permission_denied, with only it not', async () => {
    const ip = testIp();
    const doc = (await api<Record<string, any>>('/v1/openapi.json', { ip })).body; // eslint-disable-line @typescript-eslint/no-explicit-any
    const org = await createTestOrg();
    const all = ['renders', 'edits', 'decorations', 'upscales', 'generations_read'] as const;
    let checked = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) { // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const [method, op] of Object.entries<any>(item)) { // eslint-disable-line @typescript-eslint/no-explicit-any
        const needed = op['x-permissions'] as (typeof all)[number][];
        expect(needed.length, `${method} ${path}`).toBeGreaterThan(0);
        expect(op.description, `${method} ${path}`).toContain('**Permission:**');
        expect(op['x-codeSamples'].map((s: { label: string }) => s.label), `${method} ${path}`).toEqual(['curl', 'SDK (TypeScript)', 'SDK (Python)']);
        const url = `/v1${path.replace('{id}', 'gen_doesnotexist')}`;
        const call = async (key: string) => {
          const res = await fetch(`${baseUrl}${url}`, {
            method: method.toUpperCase(),
            headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': ip, ...(method === 'post' ? { 'content-type': 'application/json' } : {}) },
            ...(method === 'post' ? { body: '{}' } : {}),
          });
          const text = res.headers.get('content-type')?.startsWith('text/event-stream') ? (await res.body?.cancel(), '') : await res.text();
          return { status: res.status, code: text ? (JSON.parse(text) as { error?: { code: string } }).error?.code : undefined };
        };
        const without = await call(await createKey(org.id, 'test', all.filter((p) => !needed.includes(p))));
        expect(without, `${method} ${path} without ${needed.join(', ')}`).toEqual({ status: 403, code: 'permission_denied' });
        const only = await call(await createKey(org.id, 'test', needed));
        expect(only.status, `${method} ${path} with only ${needed.join(', ')}`).not.toBe(403);
        checked++;
      }
    }
    expect(checked).toBe(14);
    // The spec's one permission for styles.
    expect(doc.paths['/styles'].get['x-permissions']).toEqual(['decorations']);
    expect(doc.paths['/styles'].get['x-permissions-rule']).toBeUndefined();
    expect(doc.paths['/styles'].get.description).toContain('**Permission:** `decorations`.');
    expect(doc.paths['/edit-materials'].get['x-permissions-rule']).toBeUndefined();
  });

  it('code samples call the public base URL, and the upscale sample uploads a local file', async () => {
    const doc = (await api<Record<string, any>>('/v1/openapi.json', { ip: testIp() })).body; // eslint-disable-line @typescript-eslint/no-explicit-any
    const server = doc.servers[0].url as string;
    expect(server).toMatch(/^https?:\/\/[^/]+\/v1$/);
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) { // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const op of Object.values<any>(item)) { // eslint-disable-line @typescript-eslint/no-explicit-any
        const curl = (op['x-codeSamples'] as { label: string; source: string }[]).find((s) => s.label === 'curl')!;
        expect(curl.source, path).toContain(`${server}${path.startsWith('/generations/{id}') ? '/generations/' : path}`);
      }
    }
    const upscale = Object.fromEntries((doc.paths['/upscales'].post['x-codeSamples'] as { label: string; source: string }[]).map((s) => [s.label, s.source]));
    expect(upscale.curl).toContain(`-F 'image=@living-room.jpg'`);
    expect(upscale['SDK (TypeScript)']).toContain('image: "living-room.jpg"');
    expect(upscale['SDK (Python)']).toContain('living-room.jpg');
    // The other creations keep sending a URL: both ways in are shown.
    expect(doc.paths['/renders'].post['x-codeSamples'][0].source).toContain('https://images.example.com/draft.jpg');
  });

  it('lists the codes of its error answers per status, from the one code → status table', async () => {
    const doc = (await api<Record<string, any>>('/v1/openapi.json', { ip: testIp() })).body; // eslint-disable-line @typescript-eslint/no-explicit-any
    const edits = doc.paths['/edits'].post.responses;
    expect(Object.keys(edits['400'].content['application/json'].examples)).toEqual(expect.arrayContaining(['parameter_invalid', 'mask_invalid', 'mask_dimensions_mismatch', 'mask_colors_mismatch', 'image_url_unreachable']));
    expect(Object.keys(edits['422'].content['application/json'].examples)).toEqual(['content_policy_violation']);
    expect(Object.keys(doc.paths['/generations/{id}/cancel'].post.responses['409'].content['application/json'].examples)).toEqual(['generation_not_cancelable']);
    expect(doc.paths['/renders'].post.requestBody.content['application/json'].examples.render.value).toMatchObject({ image: expect.stringMatching(/^https:/) });
    expect(doc.webhooks['generation.succeeded'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/GenerationEvent');
  });
});
