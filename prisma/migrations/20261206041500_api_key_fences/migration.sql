-- Per-key fences (keys/fences.ts): an IP allowlist, a request rate and a monthly spend cap,
-- all optional; and the client IP of the key's last use, shown with its time in the console.

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "allowedIps" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "lastUsedIp" TEXT,
ADD COLUMN     "monthlySpendCapCents" INTEGER,
ADD COLUMN     "requestsPerMinute" INTEGER;
