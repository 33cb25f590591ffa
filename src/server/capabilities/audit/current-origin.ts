import { AsyncLocalStorage } from 'node:async_hooks';
import { NO_ORIGIN, type RequestOrigin } from './actor';

/**
 * Auth.js calls our adapter and callbacks without the request, yet a sign-in's audit row needs
 * its IP and user agent: the /api/auth door runs each request inside its origin, and the sign-in
 * code reads it here. Everywhere else the origin is passed explicitly.
 */
const storage = new AsyncLocalStorage<RequestOrigin>();

export function withRequestOrigin<T>(origin: RequestOrigin, fn: () => T): T {
  return storage.run(origin, fn);
}

export function currentRequestOrigin(): RequestOrigin {
  return storage.getStore() ?? NO_ORIGIN;
}
