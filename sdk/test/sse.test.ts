import { describe, expect, it } from 'vitest';
import { SseParser } from '../src/core/sse.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('SseParser', () => {
  it('reads events across chunk boundaries, CRLF and CR line ends, comments, multi-line data', () => {
    const parser = new SseParser();
    const text = 'retry: 2000\r\nevent: ready\r\ndata: {"a":1}\r\n\r\n: ping\n\nid: evt_1\nevent: generation.succeeded\ndata: line one\ndata: line two\n\rid: evt_2\rdata: x\r\r: end\n';
    const messages = [];
    for (let i = 0; i < text.length; i += 3) messages.push(...parser.push(bytes(text.slice(i, i + 3))));
    expect(messages).toEqual([
      { event: 'ready', data: '{"a":1}', id: undefined, retry: 2000 },
      { event: 'generation.succeeded', data: 'line one\nline two', id: 'evt_1', retry: undefined },
      { event: 'message', data: 'x', id: 'evt_2', retry: undefined },
    ]);
  });

  it('keeps a multi-byte character split between chunks', () => {
    const parser = new SseParser();
    const all = bytes('data: café\n\n');
    expect([...parser.push(all.slice(0, 9)), ...parser.push(all.slice(9))]).toEqual([{ event: 'message', data: 'café', id: undefined, retry: undefined }]);
  });
});
