import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Spinner } from '#components/ui/spinner.tsx';
import { ApiError } from '#lib/api-client.ts';
import { changedPageQuery, publishStatusQuery, useRetryPublish } from '../api/publish';

const GATEWAY_DOWN = new Set([502, 503, 504]);

function ago(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/**
 * Whether the public site is up to date: "Live since 6:42 PM (12 s ago)" with "View on site" for
 * the page the last save changed once that save is live, "Publishing…", or the last failure with
 * Retry. While the server cannot be reached (the browser is offline, or the last poll got no
 * answer, or only its proxy answered) it says so instead of a "Live since" that can no longer be checked. Renders nothing when
 * the server has no publish status (404) or answers with an error.
 */
export function PublishStatus() {
  const { data, error, fetchStatus } = useQuery(publishStatusQuery);
  const { data: changed } = useQuery(changedPageQuery);
  const retry = useRetryPublish();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 5000);
    return () => clearInterval(timer);
  }, []);
  // No answer at all, or a proxy's answer that the server behind it is down.
  const unreachable = fetchStatus === 'paused' || (error !== null && (!(error instanceof ApiError) || GATEWAY_DOWN.has(error.status)));

  let body;
  if (unreachable) {
    body = <span className="text-danger">Cannot reach the server: the site&apos;s status is unknown.</span>;
  } else if (!data) {
    return null;
  } else if (data.state === 'queued' || data.state === 'building') {
    body = (
      <span className="inline-flex items-center gap-2">
        <Spinner label="Publishing" className="[&>span:first-child]:h-4 [&>span:first-child]:w-4" />
        Publishing…
      </span>
    );
  } else if (data.state === 'failed') {
    body = (
      <span className="inline-flex items-center gap-2 text-danger">
        {data.lastErrorMode === 'webhook'
          ? `The site's host was not asked to rebuild: ${data.lastError ?? 'unknown error'}. The saved content is kept.`
          : `Last publish failed: ${data.lastError ?? 'unknown error'}`}
        <Button size="sm" variant="secondary" onClick={() => retry.mutate()} disabled={retry.isPending}>
          Retry
        </Button>
      </span>
    );
  } else if (data.lastPublishedAt) {
    const at = new Date(data.lastPublishedAt);
    // The last save's page, once a publish newer than that save is live.
    const live = changed && data.lastPublishedAt !== changed.liveBefore ? changed.path : null;
    // With several servers, whether each one serves the newest content yet.
    const fleet = data.instances.total > 1 ? ` · ${data.instances.upToDate} of ${data.instances.total} servers up to date` : '';
    body = (
      <span className="inline-flex flex-wrap items-center gap-x-3">
        <span title={at.toLocaleString('en-US')}>
          Live since {at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })} ({ago(data.lastPublishedAt, now)}){fleet}
        </span>
        {live && (
          <a
            href={live}
            target="_blank"
            rel="noopener"
            className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-2 md:min-h-8"
          >
            View on site<span className="sr-only"> (opens {live} in a new tab)</span>
          </a>
        )}
      </span>
    );
  } else {
    return null;
  }
  return (
    <div aria-live="polite" className="text-sm text-muted">
      {body}
    </div>
  );
}
