// @node-lines same: the console's procedures and rules over tRPC; sessions, cookies and argon2 run under both lines in test/console-auth.test.ts
// @worker-process shared: requests to the shared server and rows through the service layer; it starts no server or process and sets no environment
/**
 * A console page requested without a session is redirected by the server (307 to sign-in, with
 * the page as `callbackUrl`, which the sign-in page follows after signing in), before any of the
 * page is rendered; with a session the page renders.
 */
import { describe, expect, it } from 'vitest';
import { baseUrl, createTestOrg } from './support';
import { createMember, signedIn } from './console-support';

async function page(path: string, cookie?: string) {
  const res = await fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

describe('signed-out visitors of console pages', () => {
  // Next answers a server redirect with a minimal document carrying the redirect for its client
  // router; the console itself (shell, skeleton, screen) is never rendered into it.
  it('no cookie: 307 to /sign-in?callbackUrl=<the page, query included>, and no page HTML', async () => {
    const org = await createTestOrg();
    for (const path of [`/o/${org.id}/test/keys`, `/o/${org.id}/live/generations?open=gen_x`, `/o/${org.id}/test/webhooks/whe_x`]) {
      const res = await page(path);
      expect(res.status, path).toBe(307);
      expect(res.location, path).toBe(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
      expect(res.body, path).not.toMatch(/<main|<nav|<h1|Loading the console|Create key|Clear filters/);
    }
  });

  it('an unknown or ended session is signed out too', async () => {
    const org = await createTestOrg();
    const res = await page(`/o/${org.id}/test/overview`, 'authjs.session-token=not-a-session');
    expect(res.status).toBe(307);
    expect(res.location).toBe(`/sign-in?callbackUrl=${encodeURIComponent(`/o/${org.id}/test/overview`)}`);
  });

  it('a member with a session gets the page (200, HTML)', async () => {
    const org = await createTestOrg();
    const owner = await createMember(org.id, 'owner');
    const res = await page(`/o/${org.id}/test/keys`, await signedIn(owner.email));
    expect(res.status).toBe(200);
    expect(res.location).toBeNull();
    expect(res.body).toMatch(/<main/);
  });
});

describe('the invitation page', () => {
  it('lives at /invitations/<token> (the URL mails carry); /invite/<token> redirects there', async () => {
    const token = 'AbCdEfGhIj0123456789';
    const res = await page(`/invite/${token}`);
    expect(res.status).toBe(307);
    expect(res.location).toBe(`/invitations/${token}`);
    const target = await page(`/invitations/${token}`);
    expect(target.status).toBe(200);
    expect(target.location).toBeNull();
  });
});

describe('pages cannot be framed or sniffed', () => {
  it('console pages carry the security headers (CSP frame-ancestors none, X-Frame-Options DENY, nosniff)', async () => {
    for (const path of ['/sign-in', '/invitations/AbCdEfGhIj0123456789', '/verify-email?token=AbCdEfGhIj0123456789']) {
      const res = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
  });
});
