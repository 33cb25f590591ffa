/** The request header in which the proxy (proxy.ts) passes a page's path and query to the server components (a layout is not given them). */
export const REQUEST_PATH_HEADER = 'x-roomtone-request-path';
