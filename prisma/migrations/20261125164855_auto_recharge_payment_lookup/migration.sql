-- AlterTable
ALTER TABLE "AutoRechargeAttempt" ADD COLUMN     "checkAfter" TIMESTAMP(3),
ADD COLUMN     "paymentRequestedAt" TIMESTAMP(3),
ADD COLUMN     "providerStatus" TEXT;
