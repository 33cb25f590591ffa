-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorUserId" TEXT,
    "actorApiKeyId" TEXT,
    "actorLabel" TEXT NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "mode" "Mode",
    "targetType" TEXT,
    "targetId" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AuditEvent_seq_key" ON "AuditEvent"("seq");

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_createdAt_seq_idx" ON "AuditEvent"("organizationId", "createdAt" DESC, "seq" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_action_createdAt_idx" ON "AuditEvent"("organizationId", "action", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_organizationId_actorUserId_createdAt_idx" ON "AuditEvent"("organizationId", "actorUserId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- The audit log is never edited: UPDATE and TRUNCATE are refused, and DELETE takes only rows
-- more than 13 months old (by the database's clock) in a transaction that declares itself the
-- retention job (set_config('roomtone.audit_retention', 'on', true)).
CREATE FUNCTION "audit_event_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF current_setting('roomtone.audit_retention', true) = 'on'
       AND OLD."createdAt" <= (now() AT TIME ZONE 'UTC') - interval '13 months' THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit events are deleted only by retention (13 months)' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RAISE EXCEPTION 'audit events cannot be changed (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "AuditEvent_no_update_or_delete" BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION "audit_event_immutable"();

CREATE TRIGGER "AuditEvent_no_truncate" BEFORE TRUNCATE ON "AuditEvent"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_event_immutable"();
