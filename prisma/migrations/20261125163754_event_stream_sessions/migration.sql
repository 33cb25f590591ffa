-- CreateTable
CREATE TABLE "EventStreamSession" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "eventTypes" TEXT[],
    "apiKeyId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EventStreamSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EventStreamSession_organizationId_mode_expiresAt_idx" ON "EventStreamSession"("organizationId", "mode", "expiresAt");
