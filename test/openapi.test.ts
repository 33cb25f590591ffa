import { describe, expect, it } from 'vitest';
import { api, testIp } from './support';

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
