import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { cn } from '#components/ui/cn.ts';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#components/ui/tabs.tsx';
import type { SessionUser } from '#shared/session.ts';
import { NewInquiriesCount } from '../tabs/contacts/new-count';
import { ActivityButton } from './activity-dialog';
import { IdleWarning } from './idle-warning';
import { lazyNamed } from './lazy-form';
import { LaunchBanner } from './launch-site';
import { LeadDeliveryBanner } from './lead-delivery-banner';
import { LoadingRows } from './load-state';
import { PublishStatus } from './publish-status';
import { SignOutButton } from './sign-out-button';
import { useGuardedTab } from './unsaved-changes';

type Lazy = LazyExoticComponent<ComponentType>;
const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): Lazy => lazyNamed(load, name);

/** SPEC 2.15 tabs, in order, then Company; each tab's code is fetched the first time it is opened. */
const TABS: { value: string; label: string; Panel: Lazy }[] = [
  { value: 'contacts', label: 'Contacts', Panel: named(() => import('../tabs/contacts/contacts-tab'), 'ContactsTab') },
  { value: 'homepage', label: 'Homepage', Panel: named(() => import('../tabs/homepage/homepage-tab'), 'HomepageTab') },
  { value: 'services', label: 'Services', Panel: named(() => import('../tabs/services/services-tab'), 'ServicesTab') },
  { value: 'documents', label: 'Documents', Panel: named(() => import('../tabs/documents/documents-tab'), 'DocumentsTab') },
  { value: 'about', label: 'About', Panel: named(() => import('../tabs/about/about-tab'), 'AboutTab') },
  { value: 'blog', label: 'Blog', Panel: named(() => import('../tabs/blog/blog-tab'), 'BlogTab') },
  { value: 'account', label: 'Account', Panel: lazy(() => import('../tabs/account/account-tab')) },
  { value: 'templates', label: 'Templates', Panel: named(() => import('../tabs/templates/templates-tab'), 'TemplatesTab') },
  // Beyond the spec's eight: the business's identity, which every public page reads.
  { value: 'company', label: 'Company', Panel: named(() => import('../tabs/company/company-tab'), 'CompanyTab') },
];

/** Keeps the open tab visible in the phone's scrolling row of tabs. */
function scrollIntoRow(el: HTMLElement | null) {
  el?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function tabFromHash(): string {
  const hash = window.location.hash.slice(1);
  return TABS.some((t) => t.value === hash) ? hash : 'contacts';
}

export function AdminShell({ user }: { user: SessionUser | null }) {
  const { value: tab, onValueChange } = useGuardedTab(tabFromHash);
  const shown = useRef(tab);
  useEffect(() => {
    shown.current = tab;
  }, [tab]);
  const [menuOpen, setMenuOpen] = useState(false);
  const select = (value: string) => onValueChange(value, () => history.replaceState(null, '', `#${value}`));
  useEffect(() => {
    // A typed or linked #tab goes through the same guard; kept editing, the address shows the open tab again.
    const onHash = () => {
      const next = tabFromHash();
      if (next !== shown.current) history.replaceState(null, '', `#${shown.current}`);
      onValueChange(next, () => history.replaceState(null, '', `#${next}`));
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [onValueChange]);

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
          <Button
            variant="secondary"
            size="sm"
            className="sm:hidden"
            aria-expanded={menuOpen}
            aria-controls="admin-header-menu"
            onClick={() => setMenuOpen((o) => !o)}
          >
            Menu
          </Button>
          <div
            id="admin-header-menu"
            className={cn('w-full flex-wrap items-center gap-3 pb-2 sm:flex sm:w-auto sm:pb-0', menuOpen ? 'flex' : 'hidden')}
          >
            <PublishStatus />
            {user && <ActivityButton />}
            <Badge tone="info">{user ? `${user.username} (Admin)` : 'Preview Mode'}</Badge>
            {user && <SignOutButton />}
          </div>
          {user && <IdleWarning />}
        </div>
      </header>
      <main className="container-page py-6">
        {user && <LeadDeliveryBanner />}
        {user && <LaunchBanner />}
        <Tabs value={tab} onValueChange={select} activationMode="manual">
          {/* On a phone the tabs are one row that scrolls sideways (the open one scrolled into view). */}
          <TabsList aria-label="Back office sections" className="max-sm:flex-nowrap max-sm:overflow-x-auto">
            {TABS.map((t) => (
              <TabsTrigger
                key={t.value}
                value={t.value}
                className="shrink-0 whitespace-nowrap"
                ref={t.value === tab ? scrollIntoRow : undefined}
              >
                {t.label}
                {t.value === 'contacts' && user && <NewInquiriesCount />}
              </TabsTrigger>
            ))}
          </TabsList>
          {TABS.map(({ value, label, Panel }) => (
            <TabsContent key={value} value={value}>
              <Suspense fallback={<LoadingRows rows={4} label={`Loading ${label}`} />}>
                <Panel />
              </Suspense>
            </TabsContent>
          ))}
        </Tabs>
      </main>
    </div>
  );
}
