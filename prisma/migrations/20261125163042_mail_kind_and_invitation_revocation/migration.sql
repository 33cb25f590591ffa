-- CreateEnum
CREATE TYPE "MailKind" AS ENUM ('access', 'notification');

-- AlterTable
ALTER TABLE "Invitation" ADD COLUMN     "revokedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "MailOutbox" ADD COLUMN     "kind" "MailKind" NOT NULL DEFAULT 'access';

-- CreateIndex
CREATE INDEX "Invitation_invitedByUserId_createdAt_idx" ON "Invitation"("invitedByUserId", "createdAt");

-- CreateIndex
CREATE INDEX "MailOutbox_to_createdAt_idx" ON "MailOutbox"("to", "createdAt");

-- CreateIndex
CREATE INDEX "MailOutbox_createdAt_idx" ON "MailOutbox"("createdAt");
