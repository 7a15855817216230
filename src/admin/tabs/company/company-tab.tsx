import { useQuery } from '@tanstack/react-query';
import { Suspense, useCallback, useState, type ReactNode } from 'react';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { COMPLIANCE_STATUS_LABELS } from '#shared/compliance.ts';
import { companyProfileQuery, useSaveCompanyProfile, type CompanyProfile } from '../../api/company-profile';
import { EditorCard, LoadError, LoadingRows, formatDate, formatDateTime } from '../../components/load-state';
import { useCompanyFieldRequests, type CompanyField } from '../../components/contact-field-request';
import { SiteVisibilityCard } from '../../components/launch-site';
import { SetupChecklist } from '../../components/setup-checklist';
import { lazyNamed } from '../../components/lazy-form';
import { FIGURES, changedFields } from './company-fields';
import { PastPerformanceEditor } from './past-performance-editor';
import { StatementCard } from './statement-card';

// The form (react-hook-form and the shared zod schema) loads on the first Edit.
const CompanyProfileForm = lazyNamed(() => import('./company-form'), 'CompanyProfileForm');

const TITLE = 'Company Profile';
const DESCRIPTION =
  'Your business’s identity: every public page reads it (header, footer, federal capabilities, partners, about, home page figures, privacy policy and search results). Anything left empty is left out of the pages.';

/** The Company tab: the company profile in view mode, every field in edit mode. */
export function CompanyTab() {
  const query = useQuery(companyProfileQuery);
  const save = useSaveCompanyProfile();
  const [editing, setEditing] = useState(false);
  // Opened from the setup checklist: the form at that field; saving returns to the checklist.
  const [focusField, setFocusField] = useState<CompanyField>();
  useCompanyFieldRequests(
    useCallback((field: CompanyField) => {
      setFocusField(field);
      setEditing(true);
    }, []),
  );
  const record = query.data;

  let body: ReactNode;
  if (query.isPending) body = <LoadingRows rows={6} label="Loading company profile" />;
  else if (query.isError) body = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  else if (editing && record)
    body = (
      <Suspense fallback={<LoadingRows rows={6} label="Loading the form" />}>
        <CompanyProfileForm
          key={record.version}
          record={record}
          focusField={focusField}
          onCancel={() => setEditing(false)}
          onSubmit={async (values) => {
            const changed = changedFields(record, values);
            if (Object.keys(changed).length > 0) await save.mutateAsync({ version: record.version, values: changed });
            setEditing(false);
            if (focusField) {
              setFocusField(undefined);
              document.getElementById('setup-checklist-title')?.scrollIntoView({ block: 'start' });
            }
          }}
        />
      </Suspense>
    );
  else if (record) body = <ProfileView record={record} />;

  return (
    <div className="space-y-6">
      {/* "Before you launch": here, below the tabs, so that no tab's editor is pushed out of view. */}
      <SetupChecklist />
      <EditorCard
        title={TITLE}
        description={DESCRIPTION}
        actions={record && !editing ? <Button onClick={() => setEditing(true)}>Edit Company Profile</Button> : undefined}
      >
        {body}
      </EditorCard>
      <PastPerformanceEditor />
      <StatementCard />
      <SiteVisibilityCard />
    </div>
  );
}

/** Whether the home page shows the figures; a one-click confirmation while it does not. */
function FiguresStatus({ record }: { record: CompanyProfile }) {
  const save = useSaveCompanyProfile();
  if (record.figuresConfirmed) return <Badge tone="success">Shown on the home page</Badge>;
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Badge tone="muted">Hidden until you confirm them</Badge>
      <Button
        size="sm"
        variant="secondary"
        disabled={save.isPending}
        onClick={() => save.mutate({ version: record.version, values: { figuresConfirmed: true } })}
      >
        Confirm figures
      </Button>
    </span>
  );
}

const dash = (v: string | null | undefined) => v || '—';

function Section({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <section aria-label={title} className="min-w-0">
      <h3 className="mb-2 text-base font-semibold text-ink">{title}</h3>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[14rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-muted">{label}</dt>
            <dd className="min-w-0 break-words text-ink">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const bullets = (items: ReactNode[]) =>
  items.length === 0 ? (
    '—'
  ) : (
    <ul className="list-disc space-y-1 pl-5">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );

function ProfileView({ record: p }: { record: CompanyProfile }) {
  return (
    <div className="space-y-6">
      <Section
        title="Names and description"
        rows={[
          ['Legal name', p.legalName],
          ['Short name', p.shortName],
          ['Name beside the logo', p.showNameWithLogo ? 'Shown' : 'Not shown (the logo alone, once one is uploaded)'],
          ['Tagline', dash(p.tagline)],
          ['Description', <span className="whitespace-pre-line">{dash(p.description)}</span>],
        ]}
      />
      <Section
        title="Registrations"
        rows={[
          ['UEI', dash(p.uei)],
          ['CAGE code', dash(p.cageCode)],
          ['Set-aside eligibility', dash(p.setAside)],
          ['SAM registration', p.samActive ? <Badge tone="success">Active</Badge> : <Badge tone="muted">Not marked active</Badge>],
          ['SAM renewal date', dash(formatDay(p.samExpiresOn))],
          [
            'Certifications',
            bullets(
              p.certifications.map((c) =>
                [c.name, c.identifier && `No. ${c.identifier}`, c.expiresOn && `expires ${formatDay(c.expiresOn)}`]
                  .filter(Boolean)
                  .join(' · '),
              ),
            ),
          ],
        ]}
      />
      <Section
        title="What you sell"
        rows={[
          ['Procurement types', bullets(p.procurementTypes)],
          [
            'NAICS codes',
            bullets(p.naicsCodes.map((n) => `${n.code} ${n.title}${n.partnerSupply ? ` (partners supply: ${n.partnerSupply})` : ''}`)),
          ],
          ['PSC codes', dash(p.pscCodes.join(', '))],
          ['Contract vehicles', bullets(p.contractVehicles.map((v) => [v.name, v.number].filter(Boolean).join(' ')))],
        ]}
      />
      <Section
        title="Contact"
        rows={[
          ['Procurement e-mail', <span className="break-all">{dash(p.procurementEmail)}</span>],
          ['Point of contact’s e-mail', <span className="break-all">{dash(p.contactPersonEmail)}</span>],
          ['Point of contact’s phone', dash(p.contactPersonPhone)],
        ]}
      />
      <Section
        title="Compliance statements"
        rows={[
          [
            'Statements',
            bullets(
              p.complianceStatements.map((c) => (
                <>
                  {c.text} <Badge tone={c.status === 'yes' ? 'success' : 'muted'}>{COMPLIANCE_STATUS_LABELS[c.status]}</Badge>
                  {c.status === 'no' && <span className="text-muted"> (not shown)</span>}
                </>
              )),
            ),
          ],
        ]}
      />
      <Section
        title="Marketing figures"
        rows={[
          ['On the home page', <FiguresStatus record={p} />],
          ...FIGURES.map((f): [string, ReactNode] => [f.label, dash(p.figures[f.key])]),
        ]}
      />
      <p className="text-xs text-muted">Last updated {formatDateTime(p.updatedAt)}</p>
    </div>
  );
}

/** A YYYY-MM-DD date as the back office writes dates (read as a calendar day, not a UTC instant). */
function formatDay(value: string | null | undefined): string {
  return value ? formatDate(`${value}T12:00:00`) : '';
}
