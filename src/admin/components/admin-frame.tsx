import type { ReactNode } from 'react';
import { Spinner } from '#components/ui/spinner.tsx';
import { LoadingRows } from './load-state';

/** SPEC 2.15 tabs, in order, then Company (the business's identity, which every public page reads). */
export const TAB_NAMES = [
  { value: 'contacts', label: 'Contacts' },
  { value: 'visits', label: 'Visits' },
  { value: 'homepage', label: 'Homepage' },
  { value: 'services', label: 'Services' },
  { value: 'documents', label: 'Documents' },
  { value: 'about', label: 'About' },
  { value: 'blog', label: 'Blog' },
  { value: 'account', label: 'Account' },
  { value: 'templates', label: 'Templates' },
  { value: 'company', label: 'Company' },
] as const;

export type TabValue = (typeof TAB_NAMES)[number]['value'];

/** The tab row's look, shared by the real tabs and the loading frame's stand-ins. */
export const TAB_LIST_CLASS = 'max-sm:flex-nowrap max-sm:overflow-x-auto';
export const TAB_TRIGGER_CLASS = 'shrink-0 whitespace-nowrap';

/**
 * The back office's frame: the header (a link back to the website, the title, then `headerEnd`)
 * and the main column. The page's static HTML and the signed-in app draw the same frame, so
 * nothing moves when the app mounts.
 */
export function AdminFrame({ headerEnd, children }: { headerEnd?: ReactNode; children: ReactNode }) {
  return (
    <div className="min-h-screen bg-surface">
      {/* Sticky from 40rem: whether (and since when) the site is live stays in view while editing. On a
          phone the header is one compact row that scrolls away; its status and account controls open
          from Menu. */}
      <header className="border-b border-line bg-white sm:sticky sm:top-0 sm:z-40">
        <div className="container-page flex flex-wrap items-center justify-between gap-x-3 py-2 sm:py-4">
          <div className="flex min-w-0 items-center gap-3">
            <a
              href="/"
              className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
            >
              ← Website
            </a>
            <h1 className="text-lg font-bold sm:text-xl">Back Office</h1>
          </div>
          {headerEnd}
        </div>
      </header>
      <main className="container-page py-6">{children}</main>
    </div>
  );
}

/**
 * What shows before the app can: the frame, the tab names in their places and skeleton rows. It is
 * the static HTML of /admin (drawn before any script runs) and the app's own view while it checks
 * the session, so the page is never blank and does not jump.
 */
export function AdminLoadingFrame() {
  return (
    <AdminFrame headerEnd={<Spinner label="Checking your session" />}>
      <div aria-hidden="true" className={`flex flex-wrap gap-1 border-b border-line ${TAB_LIST_CLASS}`}>
        {TAB_NAMES.map((t) => (
          <span
            key={t.value}
            className={`-mb-px inline-flex min-h-11 items-center border-b-2 border-transparent px-3 py-2 text-sm font-semibold text-muted sm:px-4 ${TAB_TRIGGER_CLASS}`}
          >
            {t.label}
          </span>
        ))}
      </div>
      <div className="pt-6">
        <LoadingRows rows={4} label="Loading the back office" />
      </div>
    </AdminFrame>
  );
}
