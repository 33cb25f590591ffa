/**
 * A Server-Sent Events parser (the WHATWG event-stream format): lines ending in LF, CRLF or
 * CR; `data`, `event`, `id` and `retry` fields; comments (`:`) reported as activity only.
 */
export interface SseMessage {
  event: string;
  data: string;
  id: string | undefined;
  retry: number | undefined;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private retry: number | undefined;
  private readonly decoder = new TextDecoder();

  /** Feed bytes; returns the messages they complete. */
  push(chunk: Uint8Array): SseMessage[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    const messages: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | null {
    if (line === '') {
      if (this.data.length === 0 && this.event === '') return null;
      const message = { event: this.event || 'message', data: this.data.join('\n'), id: this.id, retry: this.retry };
      this.data = [];
      this.event = '';
      this.retry = undefined;
      return message;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return null;
  }
}
