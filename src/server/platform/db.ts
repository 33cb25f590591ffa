import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/generated/prisma/client';
import { config } from './config';

export type Db = PrismaClient;
/** The client or an interactive transaction client: service functions accept either. */
export type DbTx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

// One client per process (and per Next.js bundle); kept on globalThis so hot reload and
// several imports share it.
const globalForDb = globalThis as unknown as { roomtoneDb?: PrismaClient; roomtoneDbUrl?: string };

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (the launcher sets it for the embedded database).');
  return url;
}

export function db(): PrismaClient {
  const url = databaseUrl();
  if (!globalForDb.roomtoneDb || globalForDb.roomtoneDbUrl !== url) {
    const max = config().DATABASE_POOL_SIZE;
    globalForDb.roomtoneDb = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
    globalForDb.roomtoneDbUrl = url;
  }
  return globalForDb.roomtoneDb;
}

export async function closeDb(): Promise<void> {
  if (globalForDb.roomtoneDb) {
    await globalForDb.roomtoneDb.$disconnect();
    globalForDb.roomtoneDb = undefined;
  }
}
