-- CreateEnum
CREATE TYPE "GenerationStage" AS ENUM ('queued', 'preparing', 'generating', 'finishing');

-- AlterTable
ALTER TABLE "Generation" ADD COLUMN     "progress" DOUBLE PRECISION,
ADD COLUMN     "progressStage" "GenerationStage" NOT NULL DEFAULT 'queued';
