-- CreateEnum
CREATE TYPE "CreditPurchaseStatus" AS ENUM ('pending', 'paid', 'expired');

-- CreateTable
CREATE TABLE "CreditPurchase" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "status" "CreditPurchaseStatus" NOT NULL DEFAULT 'pending',
    "provider" TEXT NOT NULL,
    "checkoutId" TEXT,
    "checkoutUrl" TEXT,
    "paymentReference" TEXT,
    "receiptUrl" TEXT,
    "balanceTransactionId" TEXT,
    "createdByUserId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "CreditPurchase_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CreditPurchase_checkoutId_key" ON "CreditPurchase"("checkoutId");

-- CreateIndex
CREATE INDEX "CreditPurchase_organizationId_createdAt_idx" ON "CreditPurchase"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "CreditPurchase_status_createdAt_idx" ON "CreditPurchase"("status", "createdAt");

-- AddForeignKey
ALTER TABLE "CreditPurchase" ADD CONSTRAINT "CreditPurchase_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
