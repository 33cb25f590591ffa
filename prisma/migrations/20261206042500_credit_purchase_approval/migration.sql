-- With the manual payment provider a console purchase (or an auto-recharge) is a request that
-- waits for the operator's approval (billing/credit-purchases.ts): a refused one is `rejected`,
-- and a request filed by an auto-recharge names its attempt, once.

-- AlterEnum
ALTER TYPE "CreditPurchaseStatus" ADD VALUE 'rejected';

-- AlterTable
ALTER TABLE "CreditPurchase" ADD COLUMN     "autoRechargeAttemptId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "CreditPurchase_autoRechargeAttemptId_key" ON "CreditPurchase"("autoRechargeAttemptId");
