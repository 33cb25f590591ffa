-- AlterTable
ALTER TABLE "RequestLog" ADD COLUMN     "requestParams" JSONB,
ADD COLUMN     "responseBody" JSONB;
