-- The logged bodies are JSON text the service wrote (requestlog/redact.ts): kept as text, so
-- PostgreSQL does not parse each one on insert (bench/: a quarter of its CPU per list read).
ALTER TABLE "RequestLog"
  ALTER COLUMN "requestParams" TYPE TEXT USING "requestParams"::text,
  ALTER COLUMN "responseBody" TYPE TEXT USING "responseBody"::text;
