import { handleConsoleTrpc } from '@/server/http/console-trpc';

// The console's tRPC endpoint. `npm start` serves /api/trpc before Next (src/server/platform/web-server.ts); this route serves `next start` alone.
export const dynamic = 'force-dynamic';
export const GET = handleConsoleTrpc;
export const POST = handleConsoleTrpc;
