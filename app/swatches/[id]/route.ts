import { swatchPng } from '@/server/reference/swatches';
import { getEditMaterial } from '@/server/reference/catalog';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/**
 * Swatch preview of an edit material, for the console's material picker (no key needed: the
 * catalogue is public). `?size=` 32–512, default 256.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const sizeParam = new URL(req.url).searchParams.get('size') ?? '256';
  const size = Number(sizeParam);
  if (!/^\d{2,3}$/.test(sizeParam) || size < 32 || size > 512) {
    return Response.json({ error: { code: 'parameter_invalid', message: 'size must be an integer from 32 to 512.', param: 'size' } }, { status: 400 });
  }
  if (!getEditMaterial(id)) {
    return Response.json({ error: { code: 'resource_not_found', message: `No such edit material: '${id}'.`, param: 'id' } }, { status: 404 });
  }
  const png = await swatchPng(id, size);
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400' } });
}
