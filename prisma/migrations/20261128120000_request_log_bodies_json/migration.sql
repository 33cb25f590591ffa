-- AlterTable
ALTER TABLE "RequestLog" ALTER COLUMN "requestParams" SET DATA TYPE JSON,
ALTER COLUMN "responseBody" SET DATA TYPE JSON;
