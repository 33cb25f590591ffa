// @node-lines same: the mail outbox's rules; sign-in by mail runs under both lines in test/console-auth.test.ts
// @worker-process shared: mail through a loopback SMTP server it closes after it; SMTP_URL and LOG_LEVEL given back (test/file-environment.ts); it starts no process
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { db } from '@/server/platform/db';
import { resetConfigCache } from '@/server/platform/config';
import { sendMail } from '@/server/capabilities/mail/send-mail';
import './support';
import { jsonOf, roomtone } from './roomtone-cli';
import { environmentForThisFile } from './file-environment';

environmentForThisFile();


/** `roomtone mail list` as the operator runs it (in this process: test/roomtone-cli.ts), against the test database. */
async function mailList(...args: string[]): Promise<{ code: number; json: { data: { to: string; subject: string; kind: string; text: string }[]; has_more: boolean } }> {
  const result = await roomtone(['mail', 'list', ...args, '--json']);
  return { code: result.code, json: jsonOf(result) as never };
}

/** What the logger wrote to stderr while `fn` ran, at level info. */
async function logged(fn: () => Promise<void>): Promise<string> {
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'info';
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
    if (level === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = level;
  }
  return lines.join('');
}

/** A real SMTP server on loopback (the relay is the outside world here). */
let server: SMTPServer;
let port = 0;
const messages: { from: string; to: string[]; data: string }[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (d: Buffer) => (data += d.toString()));
      stream.on('end', () => {
        messages.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('mail port', () => {
  it('without SMTP_URL (zero-setup): the message goes to the server log and the record that `roomtone mail list` shows the operator', async () => {
    delete process.env.SMTP_URL;
    resetConfigCache();
    const to = `outbox-${Date.now()}@example.test`;
    const link = 'http://localhost:3000/verify-email?token=abcdefghij0123456789';
    const log = await logged(() => sendMail({ to, subject: 'Confirm', text: `Open ${link}\n`, kind: 'access' }));
    const line = JSON.parse(log.split('\n').find((l) => l.includes(to))!) as { msg: string; to: string; links: string[] };
    expect(line).toMatchObject({ to, links: [link] });
    expect(line.msg).toContain('roomtone mail list');
    expect(await db().mailOutbox.findMany({ where: { to } })).toMatchObject([{ subject: 'Confirm', body: `Open ${link}\n`, kind: 'access' }]);
    expect(messages).toHaveLength(0);

    await sendMail({ to, subject: 'Endpoint disabled', text: 'Notice', kind: 'notification' });
    const listed = await mailList('--to', to.toUpperCase());
    expect(listed.code).toBe(0);
    expect(listed.json.data.map((m) => [m.subject, m.kind])).toEqual([
      ['Endpoint disabled', 'notification'],
      ['Confirm', 'access'],
    ]);
    expect(listed.json.data[1]!.text).toContain(link);
  });

  it('sends through SMTP with nodemailer when SMTP_URL is set; the record keeps notification bodies, never the link of access mail', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    resetConfigCache();
    const to = `smtp-${Date.now()}@example.test`;
    await sendMail({ to, subject: 'Endpoint disabled', text: 'Plain body', kind: 'notification' });
    expect(messages).toHaveLength(1);
    expect(messages[0]?.to).toEqual([to]);
    expect(messages[0]?.from).toBe('no-reply@roomtone.localhost');
    expect(messages[0]?.data).toContain('Subject: Endpoint disabled');
    expect(messages[0]?.data).toContain('Plain body');
    expect(await db().mailOutbox.findMany({ where: { to } })).toMatchObject([{ body: 'Plain body', kind: 'notification' }]);

    const secret = 'http://localhost:3000/reset-password?token=SECRETsecret0123456789';
    await sendMail({ to, subject: 'Reset', text: `Use ${secret}`, kind: 'access' });
    expect(messages).toHaveLength(2);
    expect(messages[1]?.data).toContain('SECRETsecret0123456789');
    const kept = await db().mailOutbox.findFirstOrThrow({ where: { to, subject: 'Reset' } });
    expect(kept.kind).toBe('access');
    expect(kept.body).not.toContain('SECRETsecret');
  });

  it('a relay that refuses throws (the outbox row stays)', async () => {
    process.env.SMTP_URL = 'smtp://127.0.0.1:1';
    resetConfigCache();
    const to = `refused-${Date.now()}@example.test`;
    await expect(sendMail({ to, subject: 'x', text: 'y', kind: 'notification' })).rejects.toThrow();
    expect(await db().mailOutbox.count({ where: { to } })).toBe(1);
  });
});
