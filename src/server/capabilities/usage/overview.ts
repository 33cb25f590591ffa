import { db, sql, sqlTimestamp } from '@/server/platform/db';
import { clock } from '@/server/platform/clock';
import { monthlyLimitCents, monthlySpendCents } from '@/server/capabilities/billing/monthly-spend';
import { errorGroups, type ErrorGroupView } from '@/server/capabilities/requestlog/search-request-log';
import type { Scope } from '@/server/capabilities/generations/generations';
import type { GenerationStatus } from '@/generated/prisma/enums';
import { config } from '@/server/platform/config';
import { EVENT_STREAM_PATH } from '@/server/capabilities/webhooks/event-stream';
import { utcDayStart } from './usage';

/** The first steps of a new organization, each ticked off by what has really happened. */
export interface GettingStartedView {
  /** Every step done: the console stops showing the list. */
  complete: boolean;
  steps: {
    /** An API key exists (either mode, revoked ones included: one was made). */
    create_key: boolean;
    /** A /v1 or /mcp request authenticated by one of the organization's keys. */
    first_call: boolean;
    /** A generation started from the console's playground. */
    playground: boolean;
    /** A webhook endpoint, or an event stream opened (what `npx @roomtone/sdk listen` does). */
    webhook: boolean;
    /** Credit bought or recharged (not the free test-mode allowance). */
    add_credit: boolean;
    /** A live-mode request authenticated by a live key. */
    go_live: boolean;
  };
  /** The newest active test key's prefix (rt_test_…), for the first call's curl; null before one exists. */
  test_key_prefix: string | null;
  /** Where the API answers (PUBLIC_BASE_URL), without /v1. */
  base_url: string;
}

/** The console's first screen: money, today's generations, and what has been failing lately. */
export interface OverviewView {
  balance_cents: number;
  month_spend_cents: number;
  monthly_limit_cents: number;
  generations_today: Record<GenerationStatus, number>;
  /** Error groups of the last 7 days (code + route), newest first. */
  recent_errors: ErrorGroupView[];
  getting_started: GettingStartedView;
}

const ERROR_WINDOW_MS = 7 * 86_400_000;

export async function overview(scope: Scope): Promise<OverviewView> {
  const org = await db().organization.findUniqueOrThrow({ where: { id: scope.organizationId } });
  const now = clock.now();
  const [spend, today, errors, gettingStarted] = await Promise.all([
    monthlySpendCents(db(), scope.organizationId),
    sql<{ status: GenerationStatus; count: bigint }>(
      `select status::text as status, count(*) as count from "Generation" where "organizationId" = $1 and mode = $2::"Mode" and "createdAt" >= $3 group by 1`,
      [scope.organizationId, scope.mode, sqlTimestamp(utcDayStart(now))],
    ),
    errorGroups(scope, new Date(now.getTime() - ERROR_WINDOW_MS)),
    gettingStartedOf(scope.organizationId),
  ]);
  const generationsToday: Record<GenerationStatus, number> = { in_progress: 0, succeeded: 0, failed: 0, canceled: 0 };
  for (const row of today) generationsToday[row.status] = Number(row.count);
  return {
    balance_cents: org.balanceCents,
    month_spend_cents: spend,
    monthly_limit_cents: monthlyLimitCents(org, org.tier),
    generations_today: generationsToday,
    recent_errors: errors,
    getting_started: gettingStarted,
  };
}

/**
 * One existence check per step (each an index lookup), all in one statement (one round trip and
 * one pooled connection for the overview's busiest part); both modes count, the steps are the
 * organization's.
 */
async function gettingStartedOf(organizationId: string): Promise<GettingStartedView> {
  const [row] = await sql<{
    create_key: boolean;
    first_call: boolean;
    playground: boolean;
    endpoint: boolean;
    listened: boolean;
    credit: boolean;
    live: boolean;
    test_key_prefix: string | null;
  }>(
    `select
       exists (select 1 from "ApiKey" where "organizationId" = $1) as create_key,
       exists (select 1 from "RequestLog" where "organizationId" = $1 and "apiKeyId" is not null) as first_call,
       exists (select 1 from "Generation" where "organizationId" = $1 and channel = 'console'::"Channel") as playground,
       exists (select 1 from "WebhookEndpoint" where "organizationId" = $1) as endpoint,
       -- A stream's session row goes when it expires; its request stays in the log.
       exists (select 1 from "EventStreamSession" where "organizationId" = $1 union all select 1 from "RequestLog" where "organizationId" = $1 and path = '${EVENT_STREAM_PATH}' and status = 200) as listened,
       exists (select 1 from "BalanceTransaction" where "organizationId" = $1 and type in ('credit'::"BalanceTransactionType", 'recharge'::"BalanceTransactionType")) as credit,
       exists (select 1 from "RequestLog" where "organizationId" = $1 and mode = 'live'::"Mode" and "apiKeyId" is not null) as live,
       (select prefix from "ApiKey" where "organizationId" = $1 and mode = 'test'::"Mode" and "revokedAt" is null order by "createdAt" desc limit 1) as test_key_prefix`,
    [organizationId],
  );
  const steps = {
    create_key: row?.create_key === true,
    first_call: row?.first_call === true,
    playground: row?.playground === true,
    webhook: row?.endpoint === true || row?.listened === true,
    add_credit: row?.credit === true,
    go_live: row?.live === true,
  };
  return { complete: Object.values(steps).every(Boolean), steps, test_key_prefix: row?.test_key_prefix ?? null, base_url: config().publicBaseUrl };
}
