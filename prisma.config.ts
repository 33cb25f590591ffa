import { defineConfig } from 'prisma/config';

// Prisma 7 reads the datasource URL from here, not from schema.prisma. Migrations are applied
// by our own offline tool (src/server/tools/migrations/); this file keeps the standard
// `prisma` CLI usable wherever its binaries can be installed.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
