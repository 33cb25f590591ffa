-- DropIndex
DROP INDEX "RequestLog_organizationId_seq_idx";

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "createdByUserId" TEXT;

-- AlterTable
ALTER TABLE "Generation" ADD COLUMN     "requestId" TEXT;

-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "errorMessage" TEXT;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "emailVerified" TIMESTAMP(3),
ADD COLUMN     "image" TEXT,
ALTER COLUMN "passwordHash" DROP NOT NULL;

-- CreateTable
CREATE TABLE "Account" (
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("provider","providerAccountId")
);

-- CreateTable
CREATE TABLE "Session" (
    "sessionToken" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("sessionToken")
);

-- CreateTable
CREATE TABLE "VerificationToken" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VerificationToken_pkey" PRIMARY KEY ("identifier","token")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" "MemberRole" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "invitedByUserId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "acceptedAt" TIMESTAMP(3),
    "acceptedUserId" TEXT,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

-- CreateIndex
CREATE INDEX "Invitation_organizationId_createdAt_idx" ON "Invitation"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "Generation_requestId_idx" ON "Generation"("requestId");

-- CreateIndex
CREATE INDEX "RequestLog_organizationId_mode_createdAt_seq_idx" ON "RequestLog"("organizationId", "mode", "createdAt" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "RequestLog_organizationId_mode_status_createdAt_seq_idx" ON "RequestLog"("organizationId", "mode", "status", "createdAt" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "RequestLog_organizationId_mode_errorCode_createdAt_seq_idx" ON "RequestLog"("organizationId", "mode", "errorCode", "createdAt" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "RequestLog_organizationId_mode_apiKeyId_createdAt_seq_idx" ON "RequestLog"("organizationId", "mode", "apiKeyId", "createdAt" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "RequestLog_organizationId_mode_path_method_createdAt_seq_idx" ON "RequestLog"("organizationId", "mode", "path", "method", "createdAt" DESC, "seq" DESC);

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
