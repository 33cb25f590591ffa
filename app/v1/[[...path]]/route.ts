import { handleV1 } from '@/server/http/v1';

// The whole /v1 surface goes through one wrapper (src/server/http/v1.ts).
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export const GET = handleV1;
export const POST = handleV1;
export const PUT = handleV1;
export const PATCH = handleV1;
export const DELETE = handleV1;
export const OPTIONS = handleV1;
export const HEAD = handleV1;
