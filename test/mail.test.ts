import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { db } from '@/server/platform/db';
import { resetConfigCache } from '@/server/platform/config';
import { sendMail } from '@/server/mail/send-mail';
import './support';

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
  delete process.env.SMTP_URL;
  resetConfigCache();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('mail port', () => {
  it('writes to the outbox when no SMTP_URL is set (zero-setup)', async () => {
    delete process.env.SMTP_URL;
    resetConfigCache();
    const to = `outbox-${Date.now()}@example.test`;
    await sendMail({ to, subject: 'Outbox only', text: 'Hello' });
    expect(await db().mailOutbox.findMany({ where: { to } })).toMatchObject([{ subject: 'Outbox only', body: 'Hello' }]);
    expect(messages).toHaveLength(0);
  });

  it('sends through SMTP with nodemailer when SMTP_URL is set, and keeps the outbox row', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    resetConfigCache();
    const to = `smtp-${Date.now()}@example.test`;
    await sendMail({ to, subject: 'Endpoint disabled', text: 'Plain body', html: '<p>HTML body</p>' });
    expect(messages).toHaveLength(1);
    expect(messages[0]?.to).toEqual([to]);
    expect(messages[0]?.from).toBe('no-reply@roomtone.localhost');
    expect(messages[0]?.data).toContain('Subject: Endpoint disabled');
    expect(messages[0]?.data).toContain('Plain body');
    expect(messages[0]?.data).toContain('<p>HTML body</p>');
    expect(await db().mailOutbox.count({ where: { to } })).toBe(1);
  });

  it('a relay that refuses throws (the outbox row stays)', async () => {
    process.env.SMTP_URL = 'smtp://127.0.0.1:1';
    resetConfigCache();
    const to = `refused-${Date.now()}@example.test`;
    await expect(sendMail({ to, subject: 'x', text: 'y' })).rejects.toThrow();
    expect(await db().mailOutbox.count({ where: { to } })).toBe(1);
  });
});
