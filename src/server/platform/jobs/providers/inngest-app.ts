/** The Inngest app this service is (its id) and where its functions are served. */
export const INNGEST_APP_ID = 'roomtone';
export const INNGEST_SERVE_PATH = '/api/inngest';
