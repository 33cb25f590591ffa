// @node-lines same: our /v1 rules and records through the server; its HTTP edge runs under both lines in test/hostile-input.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { baseUrl } from './support';

describe('GET /swatches/{id} (material previews for the console)', () => {
  it('serves a PNG of the requested size for every kind of material', async () => {
    for (const id of ['mat_oak_herringbone', 'mat_oak_chevron']) {
      const res = await fetch(`${baseUrl}/swatches/${id}?size=128`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 128, 128]);
    }
  });

  it('404 for an unknown material, 400 for a bad size', async () => {
    const unknown = await fetch(`${baseUrl}/swatches/mat_unobtainium`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('resource_not_found');
    const bad = await fetch(`${baseUrl}/swatches/mat_oak_herringbone?size=4096`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('size');
  });
});
