/**
 * Streaming multipart/form-data parsing of a Web `Request` (what Next route handlers get),
 * with the spec's limits enforced while reading, never after buffering:
 *  - file parts only under image, mask, layers[0..2].element; another name → 400
 *    parameter_invalid (param = that name); the same field twice (file or text) → 400;
 *  - each file > 10 MB → 413 image_too_large (param = field), reading stops at the first
 *    byte beyond;
 *  - text fields > 64 KB in total (names + values, UTF-8 bytes) → 413 request_too_large;
 *  - more than five files, or a body beyond five 10 MB files + 64 KB of text (+ 1 MiB of
 *    multipart overhead) → 413 request_too_large;
 *  - malformed multipart (bad content type, no boundary, cut-off body) → 400 parameter_invalid.
 * On any refusal the request body is cancelled at once (no further bytes are pulled).
 */
import busboy from 'busboy';

import { MAX_IMAGE_BYTES } from '@/server/capabilities/images/intake';
import { DomainError, invalidParam } from '@/server/platform/errors';

export const MAX_MULTIPART_FILES = 5;
export const MAX_TEXT_FIELDS_BYTES = 64 * 1024;
/** Headroom for boundaries, part headers, preamble: generous, but bounds junk bodies. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;
const MAX_FIELD_NAME_BYTES = 200;
const MAX_FIELDS = 1000;

export const FILE_FIELD_PATTERN = /^(image|mask|layers\[[0-2]\]\.element)$/;

export interface ParsedMultipart {
  /** Null-prototype objects: a field named "__proto__" is just a key. */
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

export interface MultipartLimits {
  maxFileBytes?: number;
  maxFiles?: number;
  maxTextBytes?: number;
  /** Which names may carry files; default FILE_FIELD_PATTERN. */
  fileFieldPattern?: RegExp;
}

function tooLargeRequest(message: string): DomainError {
  return new DomainError('request_too_large', message);
}

function malformed(detail?: string): DomainError {
  return new DomainError('parameter_invalid', `The multipart/form-data body is malformed${detail ? `: ${detail}` : ''}.`);
}

/**
 * Parse the body of `request`. Resolves with every text field and file; rejects with
 * DomainError. Files are returned as received: content checks are images/intake's.
 */
export async function parseMultipart(request: Request, limits: MultipartLimits = {}): Promise<ParsedMultipart> {
  const maxFileBytes = limits.maxFileBytes ?? MAX_IMAGE_BYTES;
  const maxFiles = limits.maxFiles ?? MAX_MULTIPART_FILES;
  const maxTextBytes = limits.maxTextBytes ?? MAX_TEXT_FIELDS_BYTES;
  const filePattern = limits.fileFieldPattern ?? FILE_FIELD_PATTERN;
  const maxBodyBytes = maxFiles * maxFileBytes + maxTextBytes + MULTIPART_OVERHEAD_BYTES;

  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw malformed('the Content-Type must be multipart/form-data with a boundary');
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    throw tooLargeRequest(`The body is larger than ${maxBodyBytes} bytes.`);
  }

  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: {
        fileSize: maxFileBytes + 1, // lets us see the first byte beyond, then stops
        files: maxFiles,
        fields: MAX_FIELDS,
        parts: MAX_FIELDS + maxFiles,
        fieldSize: maxTextBytes + 1,
        fieldNameSize: MAX_FIELD_NAME_BYTES,
      },
    });
  } catch (err) {
    throw malformed(err instanceof Error ? err.message : undefined);
  }

  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const files: Record<string, Buffer> = Object.create(null) as Record<string, Buffer>;
  const seen = new Set<string>();
  let textBytes = 0;
  let failure: DomainError | null = null;
  const pendingFiles = new Set<Promise<void>>();

  const fail = (err: DomainError): void => {
    if (!failure) failure = err;
  };

  const claimName = (name: string): boolean => {
    if (seen.has(name)) {
      fail(invalidParam(name, `${name} was sent twice.`));
      return false;
    }
    seen.add(name);
    return true;
  };

  bb.on('file', (name, stream) => {
    // Destroying busboy on a refusal destroys the open file stream with an error: expected.
    stream.on('error', () => undefined);
    if (failure) {
      stream.resume();
      return;
    }
    if (!filePattern.test(name)) {
      fail(invalidParam(name, `A file was sent under ${name}; files are accepted only as image, mask and layers[N].element.`));
      stream.resume();
      return;
    }
    if (!claimName(name)) {
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const done = new Promise<void>((resolve) => {
      stream.on('data', (chunk: Buffer) => {
        if (failure) return;
        size += chunk.length;
        if (size > maxFileBytes) {
          fail(new DomainError('image_too_large', `${name} is larger than 10 MB (${maxFileBytes} bytes).`, { param: name }));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('limit', () => {
        fail(new DomainError('image_too_large', `${name} is larger than 10 MB (${maxFileBytes} bytes).`, { param: name }));
      });
      stream.on('end', () => {
        if (!failure) files[name] = Buffer.concat(chunks, size);
        resolve();
      });
      stream.on('error', () => resolve());
      stream.on('close', () => resolve());
    });
    pendingFiles.add(done);
    void done.then(() => pendingFiles.delete(done));
  });

  bb.on('field', (name, value, info) => {
    if (failure) return;
    if (info.nameTruncated) {
      fail(invalidParam(name.slice(0, 64), 'A field name is too long.'));
      return;
    }
    textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (info.valueTruncated || textBytes > maxTextBytes) {
      fail(tooLargeRequest(`Text fields exceed ${maxTextBytes} bytes in total.`));
      return;
    }
    if (!claimName(name)) return;
    fields[name] = value;
  });

  bb.on('filesLimit', () => fail(tooLargeRequest(`At most ${maxFiles} files per request.`)));
  bb.on('fieldsLimit', () => fail(tooLargeRequest('Too many fields.')));
  bb.on('partsLimit', () => fail(tooLargeRequest('Too many parts.')));

  const finished = new Promise<void>((resolve) => {
    bb.on('close', () => resolve());
    bb.on('error', (err: unknown) => {
      fail(malformed(err instanceof Error ? err.message : undefined));
      resolve();
    });
  });

  // Feed busboy from the Web stream, honouring backpressure; stop pulling on the first failure.
  const reader = request.body?.getReader();
  let received = 0;
  try {
    if (reader) {
      while (!failure) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > maxBodyBytes) {
          fail(tooLargeRequest(`The body is larger than ${maxBodyBytes} bytes.`));
          break;
        }
        if (!bb.write(value)) {
          await new Promise<void>((resolve) => {
            const onDone = (): void => {
              bb.off('drain', onDone);
              bb.off('close', onDone);
              bb.off('error', onDone);
              resolve();
            };
            bb.on('drain', onDone);
            bb.on('close', onDone);
            bb.on('error', onDone);
          });
        }
      }
    }
  } catch (err) {
    // The client went away or the body stream broke.
    fail(malformed(err instanceof Error ? err.message : 'the body could not be read'));
  }

  if (failure) {
    await reader?.cancel().catch(() => undefined);
    bb.destroy();
    throw failure;
  }
  bb.end();
  await finished;
  await Promise.all([...pendingFiles]);
  if (failure) throw failure;
  return { fields, files };
}
