import { ApiError } from '@/server/doors/errors';

export const JSON_BODY_LIMIT = 64 * 1024;

/**
 * Read a request body as text, refusing it as soon as it passes `limit` bytes: the count is
 * of bytes actually received, never of a Content-Length the client declares.
 */
export async function readBodyText(req: Request, limit = JSON_BODY_LIMIT): Promise<string> {
  return (await readBodyBytes(req, limit, () => tooLarge(limit))).toString('utf8');
}

/** The same streaming limit for raw bytes (uploads), with the door's own refusal. */
export async function readBodyBytes(req: Request, limit: number, refuse: () => ApiError): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > limit) throw refuse();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    // A client that goes away mid-body gets a 400 no one reads, not an "unexpected" 500.
    const { done, value } = await reader.read().catch(() => {
      throw new ApiError('parameter_invalid', 'The request body was cut off.');
    });
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => undefined);
      throw refuse();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): ApiError {
  return new ApiError('request_too_large', `The JSON body exceeds ${limit / 1024} KB.`);
}

/** Parse JSON text into a plain object (400 parameter_invalid when malformed or not an object). */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('parameter_invalid', 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('parameter_invalid', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
