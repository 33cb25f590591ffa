-- AlterEnum
ALTER TYPE "DeliveryStatus" ADD VALUE 'canceled';

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'event',
ADD COLUMN     "lastAttemptAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "disabledAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "requestHeaders" JSONB NOT NULL,
    "statusCode" INTEGER,
    "responseBody" TEXT,
    "error" TEXT,
    "succeeded" BOOLEAN NOT NULL,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookAttempt_endpointId_startedAt_idx" ON "WebhookAttempt"("endpointId", "startedAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_idx" ON "WebhookAttempt"("deliveryId");

-- CreateIndex
CREATE INDEX "WebhookAttempt_startedAt_idx" ON "WebhookAttempt"("startedAt");

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
