/**
 * What the request log keeps of a request's parameters and of its answer: enough to see what
 * was asked and answered, nothing that grants access or carries an image. Secrets (any field
 * named like a secret, token, password or key), image data (data: URLs, uploaded files, long
 * base64-looking strings) and URL query strings (signed file links, tokens in image URLs) are
 * replaced by a note; long strings and large bodies are cut.
 */
const SECRET_NAME = /secret|password|passphrase|token|authorization|api_?key|signature|cookie/i;
const MAX_STRING = 2_000;
/** A stored body stays below this (serialized characters); larger ones keep their first part. */
export const MAX_LOGGED_JSON = 16_000;
const MAX_DEPTH = 8;
const MAX_ITEMS = 100;

/** First characters of the short strings redactString may change (m: multipart-file:, d/D: data:, h/H: http(s)://). */
const MAY_REDACT_SHORT = new Set([109, 100, 68, 104, 72]);

/** scheme, host[:port] (no credentials), path of URL-safe characters, query, fragment. */
const PLAIN_URL = /^(https?):\/\/([a-z0-9.-]+(?::[1-9]\d{0,4})?)(\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*)(\?[^#]*)?(#.*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

const DOTTED_QUAD = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A host URL keeps as written: a name whose last label starts with a letter, or a dotted quad (not 127.1, 0x7f.1). */
function isPlainHost(scheme: string, hostAndPort: string): boolean {
  const colon = hostAndPort.indexOf(':');
  const host = colon === -1 ? hostAndPort : hostAndPort.slice(0, colon);
  const port = colon === -1 ? '' : hostAndPort.slice(colon + 1);
  if ((scheme === 'https' && port === '443') || (scheme === 'http' && port === '80')) return false;
  const last = host.slice(host.lastIndexOf('.') + 1);
  return /^[a-z]/.test(last) ? !host.startsWith('.') && !host.includes('..') : DOTTED_QUAD.test(host);
}

function redactString(value: string): string {
  // Most strings of a body are short names and values that none of the rules below touch:
  // one character code decides it (the request log redacts every answer it keeps).
  if (value.length <= 200 && !MAY_REDACT_SHORT.has(value.charCodeAt(0))) return value;
  if (value.startsWith('multipart-file:')) return '[uploaded file]';
  if (/^data:/i.test(value)) return '[image data redacted]';
  if (/^https?:\/\//i.test(value)) {
    const plain = PLAIN_URL.exec(value);
    if (plain && !DOT_SEGMENT.test(plain[3]!) && isPlainHost(plain[1]!, plain[2]!)) {
      // Already in the form URL would give back (lowercase host, no credentials, no dot
      // segments, no default port): cut the query without parsing (a list page has one per output).
      const redacted = `${plain[1]}://${plain[2]}${plain[3]}${plain[4] && plain[4].length > 1 ? '?[query redacted]' : ''}`;
      return redacted.length > MAX_STRING ? `${redacted.slice(0, MAX_STRING)}…` : redacted;
    }
    try {
      const url = new URL(value);
      if (url.username || url.password) {
        url.username = '';
        url.password = '';
      }
      const redacted = `${url.origin}${url.pathname}${url.search ? '?[query redacted]' : ''}`;
      return redacted.length > MAX_STRING ? `${redacted.slice(0, MAX_STRING)}…` : redacted;
    } catch {
      return '[url redacted]';
    }
  }
  if (value.length > 200 && /^[A-Za-z0-9+/=_-]+$/.test(value)) return `[${value.length} characters of encoded data redacted]`;
  return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… [${value.length - MAX_STRING} more characters]` : value;
}

/** SECRET_NAME's answer per field name: bodies repeat the same few names (bounded: names come from clients). */
const secretNames = new Map<string, boolean>();

function isSecretName(name: string): boolean {
  let secret = secretNames.get(name);
  if (secret === undefined) {
    secret = SECRET_NAME.test(name);
    if (secretNames.size >= 2_000) secretNames.clear();
    secretNames.set(name, secret);
  }
  return secret;
}

export function redactForLog(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => redactForLog(v, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `[${value.length - MAX_ITEMS} more items]`] : items;
  }
  const out: Record<string, unknown> = {};
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const v = object[key];
    out[key] = v !== null && v !== undefined && v !== '' && isSecretName(key) ? '[redacted]' : redactForLog(v, depth + 1);
  }
  return out;
}

/** The JSON text stored for a line (redacted, cut to MAX_LOGGED_JSON), or null when there is nothing. */
export function loggedJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(redactForLog(value));
  if (text.length <= MAX_LOGGED_JSON) return text;
  // Half: the cut text is escaped again inside the note (quotes double).
  return JSON.stringify({ truncated: true, first_characters: text.slice(0, MAX_LOGGED_JSON / 2) });
}
