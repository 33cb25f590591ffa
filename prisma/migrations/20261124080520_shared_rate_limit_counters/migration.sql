-- CreateTable
CREATE TABLE "RateLimitCounter" (
    "subject" TEXT NOT NULL,
    "windowStartMs" BIGINT NOT NULL,
    "base" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,
    "batch" INTEGER NOT NULL,
    "limitValue" INTEGER NOT NULL,

    CONSTRAINT "RateLimitCounter_pkey" PRIMARY KEY ("subject")
);

-- CreateIndex
CREATE INDEX "RateLimitCounter_windowStartMs_idx" ON "RateLimitCounter"("windowStartMs");
