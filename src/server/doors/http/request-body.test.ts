import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { requestBodyStream } from './request-body';

/** A request as node:http makes it, its body pushed by hand (what the parser does). */
function incoming(): IncomingMessage {
  return new IncomingMessage(new Socket());
}

describe('requestBodyStream', () => {
  it('reads the body a door asks for after it has arrived', async () => {
    const req = incoming();
    req.push(Buffer.from('{"a":'));
    req.push(Buffer.from('1}'));
    req.complete = true; // as the parser marks it before the end
    req.push(null);
    expect(await new Response(requestBodyStream(req)).text()).toBe('{"a":1}');
  });

  it('fails at once for a client that went away before a door asked for the body', async () => {
    const req = incoming();
    req.destroy();
    await expect(requestBodyStream(req).getReader().read()).rejects.toThrow('the client closed the connection before the body ended');
  });
});
