import { handleAuth } from '@/server/http/console-auth';

// Auth.js for the console. `npm start` serves /api/auth before Next (src/server/platform/web-server.ts); this route serves `next start` alone.
export const dynamic = 'force-dynamic';
export const GET = handleAuth;
export const POST = handleAuth;
