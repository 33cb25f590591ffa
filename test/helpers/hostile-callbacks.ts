/**
 * Known open-redirect bypasses, as the sign-in page receives them (`callbackUrl` already
 * percent-decoded once by URLSearchParams). Used by the unit tests of `safeCallbackPath`, the
 * abuse pass over /api/auth and the sign-in e2e: each must end on our own origin.
 */
export const HOSTILE_CALLBACKS = [
  '//evil.example/phish',
  '///evil.example/phish',
  '/\\evil.example/phish',
  '\\\\evil.example/phish',
  '/\\/evil.example/phish',
  '/\t/evil.example/phish',
  '/\n/evil.example/phish',
  '/\r\n/evil.example/phish',
  '\t//evil.example/phish',
  '/.//evil.example/phish',
  '/o/../..//evil.example/phish',
  'https://evil.example/phish',
  'https:evil.example/phish',
  'HTTPS://EVIL.EXAMPLE/phish',
  'javascript:alert(document.domain)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'http://localhost:3000@evil.example/phish',
  '//localhost:3000@evil.example/phish',
  'http://evil.example\\@localhost:3000/phish',
  'https://localhost:3000/o/org_1/test/overview',
  'http://localhost:3001/o',
  '/\u0000evil',
  '',
  null,
  undefined,
];

