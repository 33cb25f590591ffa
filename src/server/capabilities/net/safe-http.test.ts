import dns from 'node:dns';
import { resetConfigCache } from '@/server/platform/config';
import { timeoutSignal } from '@/server/platform/deadline';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { makeTestCertificates } from '../../../../test/tls';
import { listenOn443 } from '../../../../test/port-443';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { DomainError } from '@/server/platform/errors';
import type { ApiError } from '@/server/doors/errors';
import { toHttpError } from '@/server/doors/errors';
import {
  OutboundError,
  UnsafeUrlError,
  checkUrl,
  downloadDeadlineMs,
  isPublicAddress,
  loopbackUrlsAllowed,
  loopbackWarning,
  safeDownload,
  safeRequest,
  type Resolver,
} from './safe-http';

describe('the download deadline', () => {
  it("is the spec's 30 s unless DOWNLOAD_DEADLINE_MS says otherwise (tests shorten it to wait less)", () => {
    const saved = process.env.DOWNLOAD_DEADLINE_MS;
    try {
      delete process.env.DOWNLOAD_DEADLINE_MS;
      resetConfigCache();
      expect(downloadDeadlineMs()).toBe(30_000);
      process.env.DOWNLOAD_DEADLINE_MS = '15000';
      resetConfigCache();
      expect(downloadDeadlineMs()).toBe(15_000);
    } finally {
      if (saved === undefined) delete process.env.DOWNLOAD_DEADLINE_MS;
      else process.env.DOWNLOAD_DEADLINE_MS = saved;
      resetConfigCache();
    }
  });
});

// A tiny valid PNG (1x1 red) — its content does not matter to this module.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082',
  'hex',
);

let caPem = '';
let server: https.Server;
let server6: https.Server | null = null;
/** The [::1] server's port when not 443 (another process holds it: a full test run). */
let port6: number | undefined;
/** '' when the server listens on the real 443, ':<port>' otherwise. */
let portSuffix = '';
let testPort: number | undefined;
const streamed = { bytesWritten: 0, closedAt: 0 };

function withFlag<T>(on: boolean, fn: () => Promise<T>): Promise<T> {
  const before = process.env.DEV_ALLOW_LOOPBACK_URLS;
  if (on) process.env.DEV_ALLOW_LOOPBACK_URLS = 'true';
  else delete process.env.DEV_ALLOW_LOOPBACK_URLS;
  resetConfigCache(); // safe-http reads it through config()
  return fn().finally(() => {
    if (before === undefined) delete process.env.DEV_ALLOW_LOOPBACK_URLS;
    else process.env.DEV_ALLOW_LOOPBACK_URLS = before;
    resetConfigCache();
  });
}

function base(host = '127.0.0.1'): string {
  return `https://${host}${portSuffix}`;
}

/** Options every download against the test server needs. */
function opts(extra: { maxBytes?: number; signal?: AbortSignal } = {}) {
  return {
    maxBytes: extra.maxBytes ?? 1024 * 1024,
    param: 'image',
    ca: caPem,
    ...(testPort !== undefined ? { allowLoopbackPort: testPort } : {}),
    ...(extra.signal ? { signal: extra.signal } : {}),
  };
}

function handler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'https://x');
  const p = url.pathname;
  const m = /^\/redirect\/(\d+)$/.exec(p);
  if (m) {
    const n = Number(m[1]);
    // /redirect/n answers n redirects in a row before the image.
    res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}` : '/img' });
    res.end();
    return;
  }
  switch (p) {
    case '/img':
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) });
      res.end(PNG);
      return;
    case '/relative':
      res.writeHead(301, { location: 'img?x=1' });
      res.end();
      return;
    case '/to-http':
      res.writeHead(302, { location: `http://127.0.0.1${portSuffix}/img` });
      res.end();
      return;
    case '/to-private':
      res.writeHead(302, { location: 'https://10.0.0.1/img' });
      res.end();
      return;
    case '/to-127-0-0-2':
      res.writeHead(307, { location: `https://127.0.0.2${portSuffix}/img` });
      res.end();
      return;
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('nope');
      return;
    case '/declared-big':
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50 * 1024 * 1024) });
      res.write(Buffer.alloc(1024));
      return; // never finishes
    case '/slow':
      return; // never answers
    case '/echo': {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'x-method': req.method ?? '' });
        res.end(JSON.stringify({ body: Buffer.concat(chunks).toString('utf8'), ua: req.headers['user-agent'] }));
      });
      return;
    }
    case '/forever': {
      // Streams until the client goes away; records how much it managed to write.
      streamed.bytesWritten = 0;
      streamed.closedAt = 0;
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = (): void => {
        while (!res.destroyed) {
          streamed.bytesWritten += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
      };
      res.on('close', () => {
        streamed.closedAt = Date.now();
      });
      pump();
      return;
    }
    default:
      res.writeHead(404);
      res.end();
  }
}

function listen(srv: https.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(port, host, () => {
      srv.off('error', reject);
      resolve((srv.address() as AddressInfo).port);
    });
  });
}

beforeAll(async () => {
  const certs = await makeTestCertificates();
  caPem = certs.caPem;
  server = https.createServer({ key: certs.key, cert: certs.cert }, handler);
  // Prefer the real port 443 (the port rule is then exercised as in production), without
  // waiting for it (test/port-443.ts: in a full run the integration image server holds
  // 127.0.0.1:443 until the run ends); else an ephemeral port plus the loopback-only test hook.
  if (!(await listenOn443(server, '127.0.0.1', { wait: false }))) {
    testPort = await listen(server, 0, '127.0.0.1');
    portSuffix = `:${testPort}`;
  }
  // [::1] likewise (in a full run receivers take turns on [::1]:443); skipped only without IPv6 loopback.
  const s6 = https.createServer({ key: certs.key, cert: certs.cert }, handler);
  try {
    if (!(await listenOn443(s6, '::1', { wait: false }))) port6 = await listen(s6, 0, '::1');
    server6 = s6;
  } catch {
    server6 = null;
  }
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  if (server6) {
    server6.closeAllConnections();
    await new Promise<void>((r) => server6?.close(() => r()));
  }
});

afterEach(() => {
  delete process.env.DEV_ALLOW_LOOPBACK_URLS;
});

async function expectApiError(p: Promise<unknown>, status: number, code: string, param = 'image'): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  const apiErr = toHttpError(err as DomainError);
  expect({ status: apiErr.status, code: apiErr.code, param: apiErr.param }).toEqual({ status, code, param });
  return apiErr;
}

describe('isPublicAddress', () => {
  const refused: string[] = [
    // IPv4 special ranges
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.255',
    '169.254.169.254',
    '169.254.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.1',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    // IPv6
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    'fe80::1',
    'febf:ffff::1',
    'fec0::1',
    'fc00::1',
    'fd12:3456:789a::1',
    'ff02::1',
    'ff0e::1',
    '100::1',
    '5f00::1',
    '2001::1', // Teredo
    '2001:db8::1',
    '2001:db8:ffff::1',
    '3fff::1',
    // IPv4 embedded in IPv6
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1', // IPv4-compatible (deprecated): refused outright
    '::8.8.8.8',
    '64:ff9b::10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::1', // local-use NAT64
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:c0a8:101::1', // 6to4 of 192.168.1.1
    '2002:a9fe:a9fe::1',
    // not canonical IPs at all
    '',
    'localhost',
    '2130706433',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '127.1',
    '[::1]',
    'fe80::1%eth0',
    '::ffff:999.0.0.1',
    '1.2.3.4.5',
  ];
  const allowed: string[] = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '2001:200::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ];
  it.each(refused)('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it.each(allowed)('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
  it('the loopback flag does not change what is public', async () => {
    await withFlag(true, async () => {
      expect(isPublicAddress('127.0.0.1')).toBe(false);
      expect(isPublicAddress('::1')).toBe(false);
    });
  });
});

describe('checkUrl', () => {
  const literalUrls = [
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://0x7f.0.0.1/',
    'https://0x7f000001/',
    'https://127.1/',
    'https://0/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://169.254.169.254/latest/meta-data/',
    'https://0xa9fea9fe/',
    'https://025177524776/', // 169.254.169.254 in octal
    'https://[fe80::1]/',
    'https://[fd00::1]/',
    'https://10.1.2.3/',
    'https://192.168.0.1:443/',
  ];
  it.each(literalUrls)('refuses the IP literal URL %s', async (url) => {
    const err = await checkUrl(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeUrlError);
    expect((err as UnsafeUrlError).reason).toBe('private_address');
  });

  it('refuses shapes: http, other ports, length, credentials, garbage', async () => {
    const cases: Array<[string, string]> = [
      ['http://example.com/a.png', 'scheme'],
      ['ftp://example.com/a.png', 'scheme'],
      ['https://example.com:8443/a.png', 'port'],
      ['https://example.com:80/a.png', 'port'],
      [`https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`, 'too_long'],
      ['https://user:pass@example.com/a.png', 'credentials'],
      ['https://user@example.com/a.png', 'credentials'],
      ['not a url', 'invalid_url'],
      ['https://', 'invalid_url'],
    ];
    for (const [url, reason] of cases) {
      const err = await checkUrl(url).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(UnsafeUrlError);
      expect((err as UnsafeUrlError).reason, url).toBe(reason);
    }
    expect(`https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`).toHaveLength(2049);
  });

  it('accepts explicit :443 and a 2048-character URL of a public host', async () => {
    const resolver: Resolver = async () => [{ address: '93.184.216.34', family: 4 }];
    const t = await checkUrl('https://example.com:443/x', { resolver });
    expect(t.port).toBe(443);
    const long = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(long).toHaveLength(2048);
    await expect(checkUrl(long, { resolver })).resolves.toMatchObject({ hostname: 'example.com' });
  });

  it('refuses a name when ANY resolved address is not public', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(checkUrl('https://rebind.example/', { resolver: mixed })).rejects.toMatchObject({
      reason: 'private_address',
    });
    const mapped: Resolver = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    await expect(checkUrl('https://mapped.example/', { resolver: mapped })).rejects.toMatchObject({
      reason: 'private_address',
    });
    const ok: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ];
    const t = await checkUrl('https://fine.example/', { resolver: ok });
    expect(t.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
  });

  it('DNS failure or empty answer is an OutboundError(dns)', async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(checkUrl('https://nowhere.example/', { resolver: failing })).rejects.toMatchObject({ kind: 'dns' });
    await expect(checkUrl('https://nowhere.example/', { resolver: async () => [] })).rejects.toMatchObject({
      kind: 'dns',
    });
    expect(await checkUrl('https://nowhere.example/', { resolver: failing }).catch((e: unknown) => e)).toBeInstanceOf(
      OutboundError,
    );
  });

  it('localhost (real DNS) is refused without the flag and allowed with it', async () => {
    await expect(checkUrl('https://localhost/')).rejects.toMatchObject({ reason: 'private_address' });
    await withFlag(true, async () => {
      const t = await checkUrl('https://localhost/');
      expect(t.addresses.every((a) => a.address === '127.0.0.1' || a.address === '::1')).toBe(true);
    });
  });

  it('the flag allows exactly 127.0.0.1 and ::1', async () => {
    await withFlag(true, async () => {
      await expect(checkUrl('https://127.0.0.1/')).resolves.toBeDefined();
      await expect(checkUrl('https://2130706433/')).resolves.toBeDefined(); // = 127.0.0.1
      await expect(checkUrl('https://[::1]/')).resolves.toBeDefined();
      for (const url of [
        'https://127.0.0.2/',
        'https://127.1.0.1/',
        'https://[::ffff:127.0.0.1]/',
        'https://10.0.0.1/',
        'https://169.254.169.254/',
        'https://0.0.0.0/',
      ]) {
        await expect(checkUrl(url), url).rejects.toMatchObject({ reason: 'private_address' });
      }
      // The test-port hook never opens a port for anything but loopback.
      const pub: Resolver = async () => [{ address: '93.184.216.34', family: 4 }];
      await expect(checkUrl('https://example.com:8443/', { resolver: pub, allowLoopbackPort: 8443 })).rejects.toMatchObject(
        { reason: 'port' },
      );
      await expect(checkUrl('https://127.0.0.1:8443/', { allowLoopbackPort: 8443 })).resolves.toMatchObject({ port: 8443 });
    });
    // Without the flag, the hook is ignored.
    await expect(checkUrl('https://127.0.0.1:8443/', { allowLoopbackPort: 8443 })).rejects.toMatchObject({
      reason: 'port',
    });
  });

  it('loopbackWarning follows the flag, read at call time', async () => {
    expect(loopbackUrlsAllowed()).toBe(false);
    expect(loopbackWarning()).toBeNull();
    await withFlag(true, async () => {
      expect(loopbackUrlsAllowed()).toBe(true);
      expect(loopbackWarning()).toMatch(/DEV_ALLOW_LOOPBACK_URLS/);
    });
  });
});

describe('safeDownload against a real HTTPS server', () => {
  it('downloads with the loopback flag on (IP and host name)', async () => {
    await withFlag(true, async () => {
      const d = await safeDownload(`${base()}/img`, opts());
      expect(d.body.equals(PNG)).toBe(true);
      expect(d.contentType).toBe('image/png');
      expect(d.finalUrl).toBe(`${base()}/img`);
      const byName = await safeDownload(`${base('localhost')}/img`, opts());
      expect(byName.body.equals(PNG)).toBe(true);
    });
  });

  it('downloads over IPv6 [::1]', async (ctx) => {
    if (!server6) ctx.skip('this machine has no IPv6 loopback');
    await withFlag(true, async () => {
      const url = port6 === undefined ? 'https://[::1]/img' : `https://[::1]:${port6}/img`;
      const d = await safeDownload(url, { ...opts(), ...(port6 === undefined ? {} : { allowLoopbackPort: port6 }) });
      expect(d.body.equals(PNG)).toBe(true);
    });
  });

  it('connects to the checked address: one resolution per hop, no second DNS lookup', async () => {
    await withFlag(true, async () => {
      const lookupSpy = vi.spyOn(dns, 'lookup');
      const seen: string[] = [];
      const resolver: Resolver = async (host) => {
        seen.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      };
      try {
        const d = await safeDownload(`${base('localhost')}/redirect/2`, { ...opts(), resolver });
        expect(d.body.equals(PNG)).toBe(true);
        expect(seen).toEqual(['localhost', 'localhost', 'localhost']);
        expect(lookupSpy).not.toHaveBeenCalled();
      } finally {
        lookupSpy.mockRestore();
      }
    });
  });

  it('is refused when the flag is off', async () => {
    await expectApiError(safeDownload(`${base()}/img`, opts()), 400, 'image_url_unreachable');
    await expectApiError(safeDownload(`${base('localhost')}/img`, opts()), 400, 'image_url_unreachable');
  });

  it('127.0.0.2 is refused even with the flag', async () => {
    await withFlag(true, async () => {
      await expectApiError(safeDownload(`https://127.0.0.2${portSuffix}/img`, opts()), 400, 'image_url_unreachable');
    });
  });

  it('an untrusted certificate is refused', async () => {
    await withFlag(true, async () => {
      const { ca: _ca, ...noCa } = opts();
      const err = await expectApiError(safeDownload(`${base()}/img`, noCa), 400, 'image_url_unreachable');
      expect(err.message).toMatch(/TLS/);
    });
  });

  it('refuses http, port 8443, 2049 characters and credentials with image_url_unreachable', async () => {
    await withFlag(true, async () => {
      const long = `${base()}/img?${'a'.repeat(2049 - `${base()}/img?`.length)}`;
      expect(long).toHaveLength(2049);
      for (const url of [
        `http://127.0.0.1${portSuffix}/img`,
        'https://127.0.0.1:8443/img',
        long,
        `https://user:pw@127.0.0.1${portSuffix}/img`,
      ]) {
        await expectApiError(safeDownload(url, opts()), 400, 'image_url_unreachable');
      }
    });
  });

  it('follows 5 redirects and refuses the 6th', async () => {
    await withFlag(true, async () => {
      const ok = await safeDownload(`${base()}/redirect/5`, opts());
      expect(ok.body.equals(PNG)).toBe(true);
      expect(ok.finalUrl).toBe(`${base()}/img`);
      const err = await expectApiError(safeDownload(`${base()}/redirect/6`, opts()), 400, 'image_url_unreachable');
      expect(err.message).toMatch(/redirect/i);
      const rel = await safeDownload(`${base()}/relative`, opts());
      expect(rel.finalUrl).toBe(`${base()}/img?x=1`);
    });
  });

  it('refuses a redirect to http and to a private address', async () => {
    await withFlag(true, async () => {
      const toHttp = await expectApiError(safeDownload(`${base()}/to-http`, opts()), 400, 'image_url_unreachable');
      expect(toHttp.message).toMatch(/http/);
      await expectApiError(safeDownload(`${base()}/to-private`, opts()), 400, 'image_url_unreachable');
      await expectApiError(safeDownload(`${base()}/to-127-0-0-2`, opts()), 400, 'image_url_unreachable');
    });
  });

  it('404 is image_url_unreachable', async () => {
    await withFlag(true, async () => {
      const err = await expectApiError(safeDownload(`${base()}/missing`, opts()), 400, 'image_url_unreachable');
      expect(err.message).toMatch(/404/);
    });
  });

  it('an endless body stops at maxBytes with 413 and the connection is cut early', async () => {
    await withFlag(true, async () => {
      const maxBytes = 2 * 1024 * 1024;
      await expectApiError(safeDownload(`${base()}/forever`, opts({ maxBytes })), 413, 'image_too_large');
      // The server notices the client went away soon after.
      for (let i = 0; i < 100 && streamed.closedAt === 0; i++) await new Promise((r) => setTimeout(r, 10));
      // Timing belongs in benchmarks: what is asserted is that the server saw the cut.
      expect(streamed.closedAt).toBeGreaterThan(0);
      // Socket buffers allow a little beyond the limit, never an unbounded amount.
      expect(streamed.bytesWritten).toBeLessThan(maxBytes + 16 * 1024 * 1024);
    });
  });

  it('a declared Content-Length over maxBytes is refused before reading', async () => {
    await withFlag(true, async () => {
      await expectApiError(safeDownload(`${base()}/declared-big`, opts()), 413, 'image_too_large');
    });
  });

  it('the shared deadline gives image_url_unreachable quickly', async () => {
    await withFlag(true, async () => {
      const t0 = Date.now();
      const err = await expectApiError(
        safeDownload(`${base()}/slow`, opts({ signal: timeoutSignal(300) })),
        400,
        'image_url_unreachable',
      );
      const elapsed = Date.now() - t0;
      expect(err.message).toMatch(/time limit/);
      // The deadline was waited for (an upper bound would be a timing assertion: bench/).
      expect(elapsed).toBeGreaterThanOrEqual(250);
      // An already-expired deadline fails at once for the next URL of the same request.
      const expired = AbortSignal.abort();
      await expectApiError(safeDownload(`${base()}/img`, opts({ signal: expired })), 400, 'image_url_unreachable');
    });
  });
});

describe('safeRequest (webhook style)', () => {
  const common = () => ({
    ca: caPem,
    ...(testPort !== undefined ? { allowLoopbackPort: testPort } : {}),
  });

  it('POSTs a body and returns status, headers, body', async () => {
    await withFlag(true, async () => {
      const res = await safeRequest(`${base()}/echo`, {
        ...common(),
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'Roomtone-Webhooks/1.0' },
        body: '{"a":1}',
        timeoutMs: 5000,
      });
      expect(res.status).toBe(200);
      expect(res.headers['x-method']).toBe('POST');
      expect(JSON.parse(res.body.toString('utf8'))).toEqual({ body: '{"a":1}', ua: 'Roomtone-Webhooks/1.0' });
    });
  });

  it('never follows redirects by default: the 3xx comes back as is', async () => {
    await withFlag(true, async () => {
      const res = await safeRequest(`${base()}/redirect/1`, { ...common(), method: 'POST', body: 'x' });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/img');
    });
  });

  it('throws typed errors: UnsafeUrlError for private targets, OutboundError(timeout)', async () => {
    const err = await safeRequest('https://10.0.0.1/hook', { method: 'POST' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeUrlError);
    await withFlag(true, async () => {
      const e2 = await safeRequest(`${base()}/slow`, { ...common(), timeoutMs: 200 }).catch((e: unknown) => e);
      expect(e2).toBeInstanceOf(OutboundError);
      expect((e2 as OutboundError).kind).toBe('timeout');
    });
  });

  it('maxResponseBytes: error by default, truncate on request', async () => {
    await withFlag(true, async () => {
      const e = await safeRequest(`${base()}/forever`, { ...common(), maxResponseBytes: 1000 }).catch((x: unknown) => x);
      expect((e as OutboundError).kind).toBe('too_large');
      const res = await safeRequest(`${base()}/forever`, { ...common(), maxResponseBytes: 1000, onTooLarge: 'truncate' });
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(1000);
      expect(res.truncated).toBe(true);
    });
  });
});

describe('safeRequest keepAlive (webhook deliveries reuse connections safely)', () => {
  let ka: https.Server;
  let kaPort = 0;
  let connections = 0;
  /** When true, the server drops a kept-alive connection as its second request arrives. */
  let dropReused = false;

  beforeAll(async () => {
    const certs = await makeTestCertificates('Roomtone keep-alive CA');
    ka = https.createServer({ key: certs.key, cert: certs.cert, keepAliveTimeout: 5000 }, (req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (dropReused && socket.served > 1) {
        socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    ka.on('secureConnection', () => (connections += 1));
    kaPort = await listen(ka, 0, '127.0.0.1');
    kaCa = certs.caPem;
  });
  let kaCa = '';
  afterAll(async () => {
    ka.closeAllConnections();
    await new Promise<void>((r) => ka.close(() => r()));
  });

  const send = (keepAlive: boolean, resolver?: Resolver, host = '127.0.0.1') =>
    safeRequest(`https://${host}:${kaPort}/hook`, {
      method: 'POST',
      body: '{}',
      ca: kaCa,
      allowLoopbackPort: kaPort,
      keepAlive,
      ...(resolver ? { resolver } : {}),
    });

  it('reuses one connection for consecutive requests with keepAlive, a new one per request without', async () => {
    await withFlag(true, async () => {
      dropReused = false;
      connections = 0;
      for (let i = 0; i < 3; i++) expect((await send(false)).status).toBe(204);
      expect(connections).toBe(3);
      connections = 0;
      for (let i = 0; i < 3; i++) expect((await send(true)).status).toBe(204);
      expect(connections).toBe(1);
    });
  });

  it('sends again on a new connection when the server closed the reused one (no failure reaches the caller)', async () => {
    await withFlag(true, async () => {
      dropReused = false;
      expect((await send(true)).status).toBe(204);
      dropReused = true;
      connections = 0;
      expect((await send(true)).status).toBe(204);
      expect(connections).toBe(1);
      dropReused = false;
    });
  });

  it('still checks every request: a pooled socket for the host name does not let a private address through', async () => {
    await withFlag(true, async () => {
      const loopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
      expect((await send(true, loopback, 'localhost')).status).toBe(204);
      const rebound: Resolver = async () => [{ address: '10.0.0.7', family: 4 }];
      const err = await send(true, rebound, 'localhost').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnsafeUrlError);
    });
  });
});
