-- AlterTable: sessions get a public id (the list shows it, never the token) and where they were used from.
ALTER TABLE "Session" ADD COLUMN     "id" TEXT,
ADD COLUMN     "ip" TEXT,
ADD COLUMN     "lastSeenAt" TIMESTAMP(3),
ADD COLUMN     "userAgent" TEXT;

-- Sessions that exist already keep working: each gets a random id.
UPDATE "Session" SET "id" = 'ses_' || md5(random()::text || "sessionToken") WHERE "id" IS NULL;

ALTER TABLE "Session" ALTER COLUMN "id" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "Session_id_key" ON "Session"("id");
