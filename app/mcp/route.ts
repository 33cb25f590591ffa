import { handleMcp } from '@/server/mcp/endpoint';

// The MCP endpoint (src/server/mcp/endpoint.ts); the launcher's server calls the same handler.
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = handleMcp;
export const POST = handleMcp;
export const DELETE = handleMcp;
export const OPTIONS = handleMcp;
export const PUT = handleMcp;
export const PATCH = handleMcp;
