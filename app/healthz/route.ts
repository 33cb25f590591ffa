import { db } from '@/server/platform/db';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** 200 when the service can reach its database (and so is ready), 503 otherwise. */
export async function GET(): Promise<Response> {
  try {
    await db().$queryRaw`select 1`;
    return Response.json({ status: 'ok' });
  } catch {
    return Response.json({ status: 'unavailable' }, { status: 503 });
  }
}
