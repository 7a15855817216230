import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { Badge } from '#components/ui/badge.tsx';
import { Button } from '#components/ui/button.tsx';
import { cn } from '#components/ui/cn.ts';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#components/ui/tabs.tsx';
import type { SessionUser } from '#shared/session.ts';
import { NewInquiriesCount } from '../tabs/contacts/new-count';
import { ActivityButton } from './activity-dialog';
import { AdminFrame, TAB_LIST_CLASS, TAB_NAMES, TAB_TRIGGER_CLASS, type TabValue } from './admin-frame';
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

/** Each tab's code, fetched the first time it is opened. */
const PANELS: Record<TabValue, Lazy> = {
  contacts: named(() => import('../tabs/contacts/contacts-tab'), 'ContactsTab'),
  visits: named(() => import('../tabs/visits/visits-tab'), 'VisitsTab'),
  homepage: named(() => import('../tabs/homepage/homepage-tab'), 'HomepageTab'),
  services: named(() => import('../tabs/services/services-tab'), 'ServicesTab'),
  documents: named(() => import('../tabs/documents/documents-tab'), 'DocumentsTab'),
  about: named(() => import('../tabs/about/about-tab'), 'AboutTab'),
  blog: named(() => import('../tabs/blog/blog-tab'), 'BlogTab'),
  account: lazy(() => import('../tabs/account/account-tab')),
  templates: named(() => import('../tabs/templates/templates-tab'), 'TemplatesTab'),
  company: named(() => import('../tabs/company/company-tab'), 'CompanyTab'),
};
const TABS = TAB_NAMES.map((t) => ({ ...t, Panel: PANELS[t.value] }));

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
    <AdminFrame
      headerEnd={
        <>
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
        </>
      }
    >
      <Tabs value={tab} onValueChange={select} activationMode="manual">
        {/* On a phone the tabs are one row that scrolls sideways (the open one scrolled into view). */}
        <TabsList aria-label="Back office sections" className={TAB_LIST_CLASS}>
          {TABS.map((t) => (
            <TabsTrigger key={t.value} value={t.value} className={TAB_TRIGGER_CLASS} ref={t.value === tab ? scrollIntoRow : undefined}>
              {t.label}
              {t.value === 'contacts' && user && <NewInquiriesCount />}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map(({ value, label, Panel }) => (
          <TabsContent key={value} value={value}>
            {/* At the top of every tab's panel: under the tabs, which stay where the loading frame drew
                them when these arrive, and first in the panel for the Tab key. */}
            {user && <LeadDeliveryBanner />}
            {user && <LaunchBanner />}
            <Suspense fallback={<LoadingRows rows={4} label={`Loading ${label}`} />}>
              <Panel />
            </Suspense>
          </TabsContent>
        ))}
      </Tabs>
    </AdminFrame>
  );
}
