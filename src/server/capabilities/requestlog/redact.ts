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

function redactString(value: string): string {
  // Most strings of a body are short names and values that none of the rules below touch:
  // one character code decides it (the request log redacts every answer it keeps).
  if (value.length <= 200 && !MAY_REDACT_SHORT.has(value.charCodeAt(0))) return value;
  if (value.startsWith('multipart-file:')) return '[uploaded file]';
  if (/^data:/i.test(value)) return '[image data redacted]';
  if (/^https?:\/\//i.test(value)) return redactUrl(value);
  if (value.length > 200 && /^[A-Za-z0-9+/=_-]+$/.test(value)) return `[${value.length} characters of encoded data redacted]`;
  return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… [${value.length - MAX_STRING} more characters]` : value;
}

/** An http(s) URL as origin and path, its query replaced by a note; credentials and fragment dropped. */
function parsedUrlRedacted(value: string): string {
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

/** A query of these characters only: not empty once parsed, and nothing the parser strips or that ends the query. */
const PLAIN_QUERY = /^[\w.~%&=+-]+$/;
/** parsedUrlRedacted by what precedes a plain query (bounded: URLs come from clients). */
const redactedByBase = new Map<string, string>();

/**
 * parsedUrlRedacted, with the parse made once per link: each read signs its output URLs again,
 * so the same file link comes back with a new query. With a plain query and no fragment, the
 * text before the `?` decides the origin, the path and whether the URL parses at all, and the
 * query is not empty, so the answer for one such URL is the answer for every URL with the
 * same text before its `?`.
 */
function redactUrl(value: string): string {
  const at = value.indexOf('?');
  if (at < 0 || value.includes('#') || !PLAIN_QUERY.test(value.slice(at + 1))) return parsedUrlRedacted(value);
  const base = value.slice(0, at);
  let redacted = redactedByBase.get(base);
  if (redacted === undefined) {
    redacted = parsedUrlRedacted(value);
    if (redactedByBase.size >= 2_000) redactedByBase.clear();
    redactedByBase.set(base, redacted);
  }
  return redacted;
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

function capped(text: string): string {
  if (text.length <= MAX_LOGGED_JSON) return text;
  // Half: the cut text is escaped again inside the note (quotes double).
  return JSON.stringify({ truncated: true, first_characters: text.slice(0, MAX_LOGGED_JSON / 2) });
}

/** The JSON text stored for a line (redacted, cut to MAX_LOGGED_JSON), or null when there is nothing. */
export function loggedJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return capped(JSON.stringify(redactForLog(value)));
}

/** A string of JSON text without escapes that is an http(s) URL. */
const URL_STRING = /"(https?:\/\/[^"]*)"/gi;
/** What only the walk redacts: a secret-like word anywhere (it may name a field), image data, uploads. */
const NEEDS_WALK = new RegExp(`${SECRET_NAME.source}|"data:|"multipart-file:`, 'i');

/** Whether a string of JSON text without escapes is longer than the walk leaves alone (quotes alternate open, close). */
function hasLongString(text: string): boolean {
  for (let from = 0; ; ) {
    const open = text.indexOf('"', from);
    if (open < 0) return false;
    const close = text.indexOf('"', open + 1);
    if (close < 0 || close - open - 1 > 200) return true;
    from = close + 1;
  }
}

/** The last answer and its stored text (loggedAnswerJson). */
let lastAnswer: { text: string; logged: string | null } | null = null;

/**
 * The stored text of an answer the service serialized itself: `text` is JSON.stringify(value).
 * On the read path this is every answer, so the common case is redacted on the text, without
 * a copy of the value and a second serialization (bench/: a list page of 20 generations,
 * about 12 kB, took 80 µs the walk's way and 30 µs this way). The text way is taken only when
 * the walk would change nothing but URLs: no escapes in the text (so every string is the
 * characters between two quotes), and once each URL string is redacted like the walk does it,
 * no secret-like word anywhere (a field name the walk would redact, or a word in a value: the
 * walk decides), no image data or upload reference and no string over 200 characters. The
 * walk's depth and item limits are not applied on that way: they bound the walk, and answers
 * are cut to MAX_LOGGED_JSON like any line. Anything else takes the walk.
 */
export function loggedAnswerJson(text: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  // A client polling a page gets the same text until something changes or its URLs' expiry
  // moves on a second: comparing it with the last one is a memcmp, redacting it is not. The
  // same stored string also lets the request log's batch find it at once (requestlog.ts).
  if (lastAnswer?.text === text) return lastAnswer.logged;
  const logged = redactAnswerText(text, value);
  lastAnswer = { text, logged };
  return logged;
}

function redactAnswerText(text: string, value: unknown): string | null {
  if (!text.includes('\\')) {
    const urlsRedacted = text.replace(URL_STRING, (string, url: string) => {
      const redacted = redactString(url);
      return redacted === url ? string : JSON.stringify(redacted);
    });
    if (!NEEDS_WALK.test(urlsRedacted) && !hasLongString(urlsRedacted)) return capped(urlsRedacted);
  }
  return loggedJson(value);
}
