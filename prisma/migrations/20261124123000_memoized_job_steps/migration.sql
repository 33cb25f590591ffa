-- CreateTable
CREATE TABLE "JobStep" (
    "runKey" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "output" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JobStep_pkey" PRIMARY KEY ("runKey","name")
);

-- CreateIndex
CREATE INDEX "JobStep_createdAt_idx" ON "JobStep"("createdAt");
