import { useEffect, useState, type ReactNode } from 'react';
import { splitLines, telHref } from '#lib/lines.ts';
import { Clock, Mail, MapPin, Phone } from 'lucide-static';
import { SiteIcon } from './site-icon';

interface ContactInfo {
  email: string;
  phone: string;
  address: string;
  businessHours: string;
  displayEmail: boolean;
  displayPhone: boolean;
  displayAddress: boolean;
  displayBusinessHours: boolean;
}
type State = { kind: 'loading' } | { kind: 'error' } | { kind: 'loaded'; info: ContactInfo };

const URL = '/api/contact-info/active';
const CACHE_KEY = 'contact-info:active';

/** The answer stays fresh for 300000 ms (SPEC 7): reused from sessionStorage within that time. */
function cached(staleMs: number): ContactInfo | null | undefined {
  try {
    const raw = sessionStorage.getItem(CACHE_KEY);
    if (!raw) return undefined;
    const { at, info } = JSON.parse(raw) as { at: number; info: ContactInfo | null };
    return Date.now() - at < staleMs ? info : undefined;
  } catch {
    return undefined;
  }
}

async function loadInfo(staleMs: number): Promise<ContactInfo | null> {
  const hit = cached(staleMs);
  if (hit !== undefined) return hit;
  const res = await fetch(URL, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  const info = (await res.json()) as ContactInfo | null;
  try {
    sessionStorage.setItem(CACHE_KEY, JSON.stringify({ at: Date.now(), info }));
  } catch {
    /* storage unavailable: no cache */
  }
  return info;
}

function Unavailable({ children }: { children: string }) {
  return (
    <div className="rounded-lg border border-line bg-surface p-5">
      <p className="font-semibold text-ink">{children}</p>
      <p className="mt-1">Please check back later or reach out through our social media.</p>
    </div>
  );
}

function Item({ icon, label, children }: { icon: string; label: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="icon-tile h-11 w-11">
        <SiteIcon svg={icon} />
      </span>
      <div>
        <h3 className="font-semibold text-ink">{label}</h3>
        <div className="mt-0.5">{children}</div>
      </div>
    </li>
  );
}

/**
 * SPEC 2.10: the live business contact details with loading, error/missing and all-hidden
 * states. `staleMs`: how long an answer stays fresh (SPEC 7: 300000 ms).
 */
export function ContactInfoPanel({ staleMs }: { staleMs: number }) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    loadInfo(staleMs).then(
      (info) => live && setState(info ? { kind: 'loaded', info } : { kind: 'error' }),
      () => live && setState({ kind: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [staleMs]);

  if (state.kind === 'loading') {
    return (
      <div role="status" className="flex items-center gap-3 py-6 text-muted">
        <span className="h-6 w-6 animate-spin rounded-full border-2 border-line border-t-brand-700" aria-hidden="true" />
        Loading contact information…
      </div>
    );
  }
  if (state.kind === 'error') return <Unavailable>Contact information is temporarily unavailable.</Unavailable>;

  const { info } = state;
  if (!info.displayEmail && !info.displayPhone && !info.displayAddress && !info.displayBusinessHours) {
    return <Unavailable>Contact information is currently unavailable.</Unavailable>;
  }
  return (
    <ul className="grid gap-6" data-testid="contact-info">
      {info.displayEmail && (
        <Item icon={Mail} label="Email">
          <a className="link break-all" href={`mailto:${info.email}`}>
            {info.email}
          </a>
        </Item>
      )}
      {info.displayPhone && (
        <Item icon={Phone} label="Phone">
          <a className="link" href={telHref(info.phone)}>
            {info.phone}
          </a>
        </Item>
      )}
      {info.displayAddress && (
        <Item icon={MapPin} label="Location">
          <address className="not-italic">
            {splitLines(info.address).map((line, i) => (
              <span key={i} className="block">
                {line}
              </span>
            ))}
          </address>
        </Item>
      )}
      {info.displayBusinessHours && (
        <Item icon={Clock} label="Business Hours">
          {splitLines(info.businessHours).map((line, i) => (
            <span key={i} className="block">
              {line}
            </span>
          ))}
        </Item>
      )}
    </ul>
  );
}
