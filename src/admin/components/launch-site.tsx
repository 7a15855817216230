import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { ConfirmDialog } from '#components/ui/confirm-dialog.tsx';
import { Dialog } from '#components/ui/dialog.tsx';
import { CHECKLIST_GROUPS } from '#shared/launch-checklist.ts';
import { launchChecklistQuery, useSetLaunched } from '../api/launch';
import { EditorCard } from './load-state';

/** The text of the banner every tab shows while the site is hidden. */
const HIDDEN_NOTICE = 'Your site is hidden from search engines until you launch it.';

/**
 * "Launch site": a dialog that lists what is still starter content or missing, and launches anyway
 * on confirmation (audited; every page is published again without its `noindex`).
 */
function LaunchButton({ variant = 'primary' }: { variant?: 'primary' | 'secondary' }) {
  const [open, setOpen] = useState(false);
  const { data } = useQuery(launchChecklistQuery);
  const launch = useSetLaunched();
  const items = data?.items ?? [];
  const starter = items.filter((i) => i.starter).length;
  return (
    <>
      <Button variant={variant} onClick={() => setOpen(true)}>
        Launch site
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Launch your site?"
        description="Search engines will be able to index every public page, and robots.txt will welcome them."
        role="alertdialog"
      >
        {items.length > 0 ? (
          <div className="text-sm text-ink">
            <p className="font-semibold">
              Still to do: {items.length} {items.length === 1 ? 'item' : 'items'}
              {starter > 0 && ` (${starter} still starter content that visitors and search engines would see)`}.
            </p>
            <div className="mt-2 rounded border border-line p-3">
              {CHECKLIST_GROUPS.map((group) => {
                const inGroup = items.filter((i) => i.group === group);
                if (inGroup.length === 0) return null;
                return (
                  <div key={group} className="mb-2 last:mb-0">
                    <h3 className="font-semibold">{group}</h3>
                    <ul className="list-disc pl-5">
                      {inGroup.map((i) => (
                        <li key={i.key}>{i.text}</li>
                      ))}
                    </ul>
                  </div>
                );
              })}
            </div>
            <p className="mt-2">You can launch now and finish these later, or cancel and finish them first.</p>
          </div>
        ) : (
          <p className="text-sm text-ink">Everything on the checklist is done.</p>
        )}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setOpen(false)} disabled={launch.isPending}>
            Cancel
          </Button>
          <Button onClick={() => launch.mutate(true, { onSuccess: () => setOpen(false) })} disabled={launch.isPending}>
            {launch.isPending ? 'Launching…' : items.length > 0 ? 'Launch anyway' : 'Launch site'}
          </Button>
        </div>
      </Dialog>
    </>
  );
}

/** On every tab while the site is hidden: the notice, how much of the checklist is done (it is in the Company tab), and Launch site. */
export function LaunchBanner() {
  const { data } = useQuery(launchChecklistQuery);
  if (!data || data.launched) return null;
  return (
    <section
      aria-label="Site launch"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-brand-100 bg-brand-50 p-4 text-sm text-ink"
    >
      <p>
        <span className="font-semibold">{HIDDEN_NOTICE}</span>{' '}
        {data.items.length > 0 ? (
          <>
            Before you launch: {data.done} of {data.total} done.{' '}
            <a href="#company" className="font-semibold text-navy-800 underline underline-offset-2">
              Open the checklist
            </a>
          </>
        ) : (
          'Everything on the checklist is done.'
        )}
      </p>
      <LaunchButton />
    </section>
  );
}

/** The Company tab's card: whether search engines may index the site, and the way back. */
export function SiteVisibilityCard() {
  const { data } = useQuery(launchChecklistQuery);
  const hide = useSetLaunched();
  const [confirm, setConfirm] = useState(false);
  if (!data) return null;
  return (
    <EditorCard
      title="Search engines"
      description={
        data.launched
          ? 'Your site is launched: search engines may index every public page.'
          : 'Your site is hidden: every page asks search engines not to index it, and robots.txt turns crawlers away.'
      }
      actions={
        data.launched ? (
          <Button variant="secondary" onClick={() => setConfirm(true)}>
            Hide from search engines
          </Button>
        ) : (
          <LaunchButton />
        )
      }
    >
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Hide the site from search engines?"
        description="Every page will ask search engines not to index it and robots.txt will turn crawlers away. Pages already indexed drop out of search results over the following days. Visitors can still open the site."
        confirmLabel="Hide from search engines"
        busyLabel="Hiding…"
        busy={hide.isPending}
        onConfirm={() => hide.mutate(false, { onSuccess: () => setConfirm(false) })}
      />
    </EditorCard>
  );
}
