/**
 * @roomtone/sdk — the official TypeScript client for the Roomtone API.
 * See README.md for examples of every feature.
 */
import { Roomtone } from './client.js';

export { Roomtone, type ClientOptions } from './client.js';
export {
  RoomtoneError,
  APIError,
  AuthenticationError,
  PermissionDeniedError,
  InvalidRequestError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  WaitTimeoutError,
  WebhookVerificationError,
} from './core/errors.js';
export { Page, PagePromise } from './core/pagination.js';
export { APIPromise, type ResponseInfo } from './core/api-promise.js';
export type { ClientEventName, ClientEvents, Listener, Logger, LogLevel, RequestEvent, ResponseEvent, RetryEvent } from './core/hooks.js';
export type { DownloadOptions, DownloadTarget } from './resources/download.js';
export type { HeadersLike, ListenOptions } from './resources/webhooks.js';
export type * from './types.js';
export type { paths, components, operations, webhooks } from './generated/openapi.js';
export { VERSION } from './version.js';

export default Roomtone;
