import { blobStore, verifyFileSignature } from '@/server/storage/storage';
import { clock } from '@/server/platform/clock';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** Signed, expiring file URLs of the local blob store: readable without an API key. */
export async function GET(req: Request, { params }: { params: Promise<{ key: string[] }> }): Promise<Response> {
  const { key: parts } = await params;
  const key = parts.map((p) => decodeURIComponent(p)).join('/');
  const url = new URL(req.url);
  const expires = Number(url.searchParams.get('expires'));
  const signature = url.searchParams.get('signature') ?? '';
  const refuse = (status: number, code: string, message: string) =>
    Response.json({ error: { code, message } }, { status });
  if (!verifyFileSignature(key, expires, signature, clock.nowSeconds())) {
    return refuse(403, 'url_invalid', 'This URL is invalid or has expired. Read the generation again for a fresh URL.');
  }
  const bytes = await blobStore().get(key);
  if (!bytes) return refuse(404, 'resource_not_found', 'This image has been deleted.');
  const contentType = key.endsWith('.webp') ? 'image/webp' : key.endsWith('.png') ? 'image/png' : key.endsWith('.jpg') ? 'image/jpeg' : 'application/octet-stream';
  return new Response(new Uint8Array(bytes), {
    headers: { 'content-type': contentType, 'cache-control': 'private, max-age=900', 'content-length': String(bytes.length) },
  });
}
