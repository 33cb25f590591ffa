-- Rolling a key (keys/roll-key.ts): the key keeps its row and gets a new secret; the secret it
-- replaced keeps working until previousSecretExpiresAt. Only hashes are stored, as for the secret.

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "previousPrefix" TEXT,
ADD COLUMN     "previousSecretExpiresAt" TIMESTAMP(3),
ADD COLUMN     "previousSecretHash" TEXT,
ADD COLUMN     "rolledAt" TIMESTAMP(3);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_previousSecretHash_key" ON "ApiKey"("previousSecretHash");
