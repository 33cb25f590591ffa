import { Badge } from '@/components/ui/badge';
import { dateTime } from '@/console-client/format';

const WHY: Record<string, string> = {
  manual: 'disabled by a member',
  gone: 'the receiver answered 410 Gone',
  failing: 'every delivery failed for 72 hours',
};

/** Active, or disabled with the reason (spec: manual, 410 Gone, 72 hours of failures). */
export function EndpointStatus({ endpoint }: { endpoint: { status: string; disabled_reason: string | null; disabled_at: number | null; failing_since: number | null } }) {
  if (endpoint.status === 'active') {
    return (
      <div className="flex flex-col gap-0.5">
        <Badge variant="success" className="self-start">
          Active
        </Badge>
        {endpoint.failing_since ? <span className="text-xs text-destructive">Failing since {dateTime(endpoint.failing_since)}</span> : null}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-0.5">
      <Badge variant="destructive" className="self-start">
        Disabled
      </Badge>
      <span className="text-xs text-muted-foreground">
        {WHY[endpoint.disabled_reason ?? ''] ?? endpoint.disabled_reason}
        {endpoint.disabled_at ? `, ${dateTime(endpoint.disabled_at)}` : ''}
      </span>
    </div>
  );
}
