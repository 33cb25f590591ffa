-- Spend alerts (billing/spend-alerts.ts): an organization's thresholds (percents of its monthly
-- limit, a balance floor) and one row per alert that fired, unique per organization, threshold and month.
-- The month's spend, which admission and the alerts both sum, reads an index range of the month.

-- CreateEnum
CREATE TYPE "SpendAlertKind" AS ENUM ('monthly_limit', 'balance_floor');

-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "balanceFloorCents" INTEGER,
ADD COLUMN     "spendAlertPercents" INTEGER[] DEFAULT ARRAY[80, 100]::INTEGER[];

-- CreateTable
CREATE TABLE "SpendAlert" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "kind" "SpendAlertKind" NOT NULL,
    "threshold" INTEGER NOT NULL,
    "month" TIMESTAMP(3) NOT NULL,
    "spendCents" INTEGER NOT NULL,
    "limitCents" INTEGER NOT NULL,
    "balanceCents" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "mailedAt" TIMESTAMP(3),

    CONSTRAINT "SpendAlert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BalanceTransaction_organizationId_createdAt_idx" ON "BalanceTransaction"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "SpendAlert_organizationId_createdAt_idx" ON "SpendAlert"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "SpendAlert_mailedAt_createdAt_idx" ON "SpendAlert"("mailedAt", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SpendAlert_organizationId_kind_threshold_month_key" ON "SpendAlert"("organizationId", "kind", "threshold", "month");

-- AddForeignKey
ALTER TABLE "SpendAlert" ADD CONSTRAINT "SpendAlert_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
