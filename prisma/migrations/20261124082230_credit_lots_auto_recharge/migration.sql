-- CreateEnum
CREATE TYPE "AutoRechargeStatus" AS ENUM ('pending', 'succeeded', 'failed', 'limited', 'skipped');

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "autoRechargePendingId" TEXT,
ADD COLUMN     "stripeCustomerId" TEXT,
ADD COLUMN     "stripePaymentMethodId" TEXT;

-- CreateTable
CREATE TABLE "CreditLot" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "transactionId" TEXT,
    "amount" INTEGER NOT NULL,
    "remaining" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "expiredAt" TIMESTAMP(3),
    "expiringNoticeAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CreditLot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CreditLotAllocation" (
    "transactionId" TEXT NOT NULL,
    "lotId" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,

    CONSTRAINT "CreditLotAllocation_pkey" PRIMARY KEY ("transactionId","lotId")
);

-- CreateTable
CREATE TABLE "AutoRechargeAttempt" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "status" "AutoRechargeStatus" NOT NULL DEFAULT 'pending',
    "provider" TEXT,
    "providerReference" TEXT,
    "failureCode" TEXT,
    "failureMessage" TEXT,
    "balanceTransactionId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "AutoRechargeAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CreditLot_transactionId_idx" ON "CreditLot"("transactionId");

-- CreateIndex
CREATE INDEX "CreditLot_organizationId_expiredAt_expiresAt_idx" ON "CreditLot"("organizationId", "expiredAt", "expiresAt");

-- CreateIndex
CREATE INDEX "CreditLot_expiredAt_expiresAt_idx" ON "CreditLot"("expiredAt", "expiresAt");

-- CreateIndex
CREATE INDEX "CreditLotAllocation_lotId_idx" ON "CreditLotAllocation"("lotId");

-- CreateIndex
CREATE INDEX "AutoRechargeAttempt_organizationId_createdAt_idx" ON "AutoRechargeAttempt"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "AutoRechargeAttempt_status_createdAt_idx" ON "AutoRechargeAttempt"("status", "createdAt");

-- AddForeignKey
ALTER TABLE "CreditLot" ADD CONSTRAINT "CreditLot_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreditLotAllocation" ADD CONSTRAINT "CreditLotAllocation_lotId_fkey" FOREIGN KEY ("lotId") REFERENCES "CreditLot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AutoRechargeAttempt" ADD CONSTRAINT "AutoRechargeAttempt_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Balances from before credit lots: carried over as one lot per organization, without expiry
-- (nothing ever expired them before), so that the lots add up to the balance from the start.
INSERT INTO "CreditLot" ("id", "organizationId", "transactionId", "amount", "remaining", "expiresAt", "createdAt")
SELECT 'lot_' || substr(md5('carried-over:' || "id"), 1, 24), "id", NULL, "balanceCents", "balanceCents", NULL, CURRENT_TIMESTAMP
FROM "Organization" WHERE "balanceCents" > 0;
