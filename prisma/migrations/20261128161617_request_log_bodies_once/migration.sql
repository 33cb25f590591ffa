-- The request log's bodies move to a table of their own, each stored once per organization
-- (requestlog/requestlog.ts): a client polling a page gets the same answer many times, and
-- storing it for every poll was most of PostgreSQL's work on a list read (docs/performance.md).
-- The hash is SHA-256 of the organization id (empty without one), a newline and the text, the
-- same one the service computes; the bodies already logged are carried over.

-- CreateTable
CREATE TABLE "RequestLogBody" (
    "hash" BYTEA NOT NULL,
    "organizationId" TEXT,
    "body" TEXT NOT NULL,
    "lastUsedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RequestLogBody_pkey" PRIMARY KEY ("hash")
);

-- CreateIndex
CREATE INDEX "RequestLogBody_lastUsedAt_idx" ON "RequestLogBody"("lastUsedAt");

-- AddForeignKey
ALTER TABLE "RequestLogBody" ADD CONSTRAINT "RequestLogBody_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "requestParamsHash" BYTEA,
ADD COLUMN     "responseBodyHash" BYTEA;

-- The bodies already logged.
UPDATE "RequestLog" SET
  "requestParamsHash" = CASE WHEN "requestParams" IS NOT NULL THEN sha256(convert_to(coalesce("organizationId", '') || E'\n' || "requestParams", 'UTF8')) END,
  "responseBodyHash" = CASE WHEN "responseBody" IS NOT NULL THEN sha256(convert_to(coalesce("organizationId", '') || E'\n' || "responseBody", 'UTF8')) END
WHERE "requestParams" IS NOT NULL OR "responseBody" IS NOT NULL;

INSERT INTO "RequestLogBody" ("hash", "organizationId", "body", "lastUsedAt")
SELECT DISTINCT ON ("hash") "hash", "organizationId", "body", max("createdAt") OVER (PARTITION BY "hash")
FROM (
  SELECT "requestParamsHash" AS "hash", "organizationId", "requestParams" AS "body", "createdAt" FROM "RequestLog" WHERE "requestParams" IS NOT NULL
  UNION ALL
  SELECT "responseBodyHash", "organizationId", "responseBody", "createdAt" FROM "RequestLog" WHERE "responseBody" IS NOT NULL
) AS logged;

ALTER TABLE "RequestLog" DROP COLUMN "requestParams",
DROP COLUMN "responseBody";
