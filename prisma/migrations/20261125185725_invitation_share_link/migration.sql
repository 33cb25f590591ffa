/*
  Warnings:

  - A unique constraint covering the columns `[shareTokenHash]` on the table `Invitation` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "Invitation" ADD COLUMN     "shareTokenHash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_shareTokenHash_key" ON "Invitation"("shareTokenHash");
