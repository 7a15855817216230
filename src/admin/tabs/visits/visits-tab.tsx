import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Select } from '#components/ui/select.tsx';
import { VISIT_PERIODS, type VisitDay, type VisitPeriod, type VisitRow } from '#shared/visits.ts';
import { visitsQuery } from '../../api/visits';
import { EditorCard, LoadError, LoadingRows } from '../../components/load-state';
import { StackTable } from '../../components/stack-table';

const number = (n: number) => n.toLocaleString('en-US');
const percent = (n: number) => `${(n * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Visitors (bars) and page views (a line) per day, drawn as SVG from the figures the table
 * beneath it holds: the chart is a picture for the eye (`aria-hidden`), the table is what a
 * screen reader reads.
 */
function DailyChart({ series }: { series: VisitDay[] }) {
  const width = 720;
  const height = 180;
  const top = Math.max(1, ...series.map((d) => Math.max(d.views, d.visitors)));
  const step = width / Math.max(1, series.length);
  const y = (v: number) => height - (v / top) * (height - 8);
  const line = series.map((d, i) => `${i === 0 ? 'M' : 'L'}${(i + 0.5) * step},${y(d.views)}`).join(' ');
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="h-44 w-full" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <line x1="0" x2={width} y1={height - 0.5} y2={height - 0.5} className="stroke-line" />
      {series.map((d, i) => (
        <rect
          key={d.day}
          x={i * step + step * 0.15}
          width={step * 0.7}
          y={y(d.visitors)}
          height={height - y(d.visitors)}
          className="fill-brand-700"
        />
      ))}
      <path d={line} fill="none" strokeWidth="2" vectorEffect="non-scaling-stroke" className="stroke-amber-600" />
    </svg>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md border border-line bg-white p-3">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-2xl font-semibold">{value}</dd>
    </div>
  );
}

/** A table of keys and their visitors, and their page views where those are counted per key (pages). */
function Rows({ rows, first, empty, views = false }: { rows: VisitRow[]; first: string; empty: string; views?: boolean }) {
  if (rows.length === 0) return <p className="text-sm text-muted">{empty}</p>;
  return (
    <StackTable columns={views ? [first, 'Visitors', 'Page views'] : [first, 'Visitors']}>
      {rows.map((r) => (
        <tr key={r.key} className="border-b border-line last:border-0">
          <td className="py-2 pr-3 break-all">{r.key}</td>
          <td className="py-2 pr-3" data-label="Visitors">
            {number(r.visitors)}
          </td>
          {views && (
            <td className="py-2 pr-3" data-label="Page views">
              {number(r.views)}
            </td>
          )}
        </tr>
      ))}
    </StackTable>
  );
}

/**
 * The Visits tab: how many people came, what they read, where they came from and which sources
 * brought inquiries. Counted on this server with no cookie (docs/decisions/022).
 */
export function VisitsTab() {
  const id = useId();
  const [days, setDays] = useState<VisitPeriod>(30);
  const report = useQuery(visitsQuery(days));
  const data = report.data;

  return (
    <div className="space-y-6">
      <EditorCard
        title="Visits"
        description="Counted on this website's own server: no cookie, no outside service. Visitors who ask not to be tracked, search engine robots and signed-in staff are not counted. Days are UTC days."
        actions={
          <div>
            <label htmlFor={`${id}-days`} className="mb-1 block text-sm font-medium">
              Period
            </label>
            <Select
              id={`${id}-days`}
              value={String(days)}
              onChange={(e) => setDays(Number(e.target.value) as VisitPeriod)}
              options={VISIT_PERIODS.map((d) => ({ value: String(d), label: `Last ${d} days` }))}
            />
          </div>
        }
      >
        {report.isPending ? (
          <LoadingRows label="Loading visits" />
        ) : report.isError ? (
          <LoadError error={report.error} onRetry={() => void report.refetch()} />
        ) : !data!.counting ? (
          <p className="text-sm">Visits are not counted on this website (ANALYTICS=off).</p>
        ) : (
          <div className="space-y-6">
            <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              <Figure label="Visitors" value={number(data!.totals.visitors)} />
              <Figure label="Page views" value={number(data!.totals.views)} />
              <Figure label="Inquiries" value={number(data!.totals.inquiries)} />
              <Figure label="Capability statement downloads" value={number(data!.totals.statementDownloads)} />
            </dl>
            <figure>
              <DailyChart series={data!.series} />
              <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-muted">
                <span>
                  <span className="mr-1 inline-block size-3 bg-brand-700 align-middle" aria-hidden="true" />
                  Visitors per day
                </span>
                <span>
                  <span className="mr-1 inline-block h-0.5 w-4 bg-amber-600 align-middle" aria-hidden="true" />
                  Page views per day
                </span>
              </figcaption>
            </figure>
            <details>
              <summary className="cursor-pointer text-sm font-medium">Visitors and page views by day (table)</summary>
              <StackTable columns={['Day', 'Visitors', 'Page views']} className="mt-2">
                {data!.series.map((d) => (
                  <tr key={d.day} className="border-b border-line last:border-0">
                    <td className="py-1 pr-3">{shortDay(d.day)}</td>
                    <td className="py-1 pr-3" data-label="Visitors">
                      {number(d.visitors)}
                    </td>
                    <td className="py-1 pr-3" data-label="Page views">
                      {number(d.views)}
                    </td>
                  </tr>
                ))}
              </StackTable>
            </details>
          </div>
        )}
      </EditorCard>
      {data?.counting && (
        <>
          <EditorCard
            title="Where visitors came from"
            description="A visit's source is its campaign's utm_source, else the site that linked to it, else Direct."
          >
            {data.sources.length === 0 ? (
              <p className="text-sm text-muted">No visits in this period.</p>
            ) : (
              <StackTable columns={['Source', 'Visitors', 'Inquiries', 'Conversion']}>
                {data.sources.map((s) => (
                  <tr key={s.source} className="border-b border-line last:border-0">
                    <td className="py-2 pr-3 break-all">{s.source}</td>
                    <td className="py-2 pr-3" data-label="Visitors">
                      {number(s.visitors)}
                    </td>
                    <td className="py-2 pr-3" data-label="Inquiries">
                      {number(s.inquiries)}
                    </td>
                    <td className="py-2 pr-3" data-label="Conversion">
                      {s.visitors > 0 ? percent(s.conversion) : '—'}
                    </td>
                  </tr>
                ))}
              </StackTable>
            )}
          </EditorCard>
          <EditorCard title="Top pages">
            <Rows rows={data.pages} first="Page" empty="No page views in this period." views />
          </EditorCard>
          <EditorCard title="Campaigns" description="Links tagged with utm_campaign, for example in an e-mail or a LinkedIn post.">
            <Rows rows={data.campaigns} first="Campaign" empty="No visits from a tagged campaign in this period." />
          </EditorCard>
          <EditorCard title="Devices">
            <Rows rows={data.devices} first="Device" empty="No visits in this period." />
          </EditorCard>
        </>
      )}
    </div>
  );
}
