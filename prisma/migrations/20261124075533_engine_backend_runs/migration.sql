-- CreateTable
CREATE TABLE "EngineBackendRun" (
    "id" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "backend" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "remoteId" TEXT,
    "wallMs" INTEGER NOT NULL,
    "backendMs" INTEGER,
    "costMicroUsd" INTEGER,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EngineBackendRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EngineBackendRun_generationId_idx" ON "EngineBackendRun"("generationId");

-- CreateIndex
CREATE INDEX "EngineBackendRun_createdAt_idx" ON "EngineBackendRun"("createdAt");
