import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ChangeEvent,
  type SubmitEvent,
  type ReactNode,
} from 'react';
import { BUYER_TYPE_LABELS, BUYER_TYPES, CONTACT_FIELDS, CONTACT_RULES, contactErrors, type ContactField } from '#shared/contact-rules.ts';

const noSubscription = () => () => {};
const isClient = () => true;
const isServer = () => false;

type Values = Required<{ [K in ContactField]: string }>;

/** The spoken summary of the invalid fields, or '' when there are none. */
function summary(errors: Partial<Record<ContactField, string>>): string {
  const invalid = Object.keys(errors) as ContactField[];
  if (invalid.length === 0) return '';
  return `${invalid.length === 1 ? 'One field needs' : `${invalid.length} fields need`} attention: ${invalid.map((f) => errors[f]).join('. ')}.`;
}
const EMPTY = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, ''])) as Values;

const FIELDS: { name: ContactField; label: string; type?: string; autoComplete: string; required?: boolean }[] = [
  { name: 'name', label: 'Full Name', autoComplete: 'name', required: true },
  { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email', required: true },
  { name: 'company', label: 'Company (Optional)', autoComplete: 'organization' },
  { name: 'phone', label: 'Phone Number (Optional)', type: 'tel', autoComplete: 'tel' },
];

/**
 * `successMs`: how long the Thank You panel stays (5000 ms), passed in to keep constants
 * out of the bundle. `email`: the business's public address, offered when sending fails.
 *
 * SPEC 2.10, 4, 5: validates on submit, then on every change; 'Sending...' while busy; a Thank
 * You panel for 5 s, then an empty form; on failure a destructive toast and the values kept.
 * Plain state instead of react-hook-form keeps this island inside its JavaScript budget.
 */
export function ContactForm({ successMs, email }: { successMs: number; email?: string }) {
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!failure) return;
    const t = setTimeout(() => setFailure(null), 5000);
    return () => clearTimeout(t);
  }, [failure]);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<ContactField, string>>>({});
  const [validated, setValidated] = useState(false);
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [announcement, setAnnouncement] = useState('');
  // Until this island has hydrated, the browser would submit the form by itself: the button
  // waits, so nothing typed is sent anywhere but to the API.
  // (Written here rather than imported: a module shared with the sign-in forms would be one more
  // file for this page to load.)
  const hydrated = useSyncExternalStore(noSubscription, isClient, isServer);
  // When the page opened (set once mounted), for the submission's time-to-fill spam signal.
  const openedAt = useRef(0);
  const honeypot = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const thanks = useRef<HTMLHeadingElement>(null);

  // The form is server-rendered and hydrates when visible: keep anything typed before that.
  useLayoutEffect(() => {
    openedAt.current = Math.round(performance.timeOrigin);
    const el = form.current;
    if (!el) return;
    const typed = { ...EMPTY };
    for (const name of CONTACT_FIELDS) typed[name] = (el.elements.namedItem(name) as HTMLInputElement).value;
    setValues(typed);
  }, []);

  useEffect(() => {
    if (status !== 'sent') return;
    thanks.current?.focus();
    const timer = setTimeout(() => {
      setValues(EMPTY);
      setErrors({});
      setValidated(false);
      setStatus('idle');
      openedAt.current = Date.now();
    }, successMs);
    return () => clearTimeout(timer);
  }, [status, successMs]);

  const onChange = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    const next = { ...values, [e.target.name]: e.target.value };
    setValues(next);
    if (!validated) return;
    const found = contactErrors(next);
    setErrors(found);
    // The screen-reader summary follows the fields: a corrected field leaves it, and it empties
    // once all are valid. The same text is not announced again while nothing changes.
    if (announcement) setAnnouncement(summary(found));
  };

  const onSubmit = async (e: SubmitEvent) => {
    e.preventDefault();
    const found = contactErrors(values);
    setValidated(true);
    setErrors(found);
    const invalid = Object.keys(found) as ContactField[];
    if (invalid.length > 0) {
      setAnnouncement(summary(found));
      form.current?.querySelector<HTMLElement>(`[name="${invalid[0]}"]`)?.focus();
      return;
    }
    setAnnouncement('');
    setStatus('sending');
    const body = {
      ...values,
      website: honeypot.current?.value ?? '',
      elapsedMs: Date.now() - openedAt.current,
    };
    // Plain fetch, not the shared client + toast: those would push /contact past its JS budget.
    // Nothing here throws: a network failure and an unreadable answer both become null.
    const res = await fetch('/api/contact', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).catch(() => null);
    if (res?.ok) {
      // Read to the end, so the answer's connection is done with.
      await res.json().catch(() => null);
      setFailure(null);
      setStatus('sent');
      return;
    }
    setStatus('idle');
    setFailure(
      ((await res?.json().catch(() => null)) as { message?: string } | null)?.message || 'Failed to send message. Please try again.',
    );
  };

  if (status === 'sent') {
    return (
      <div role="status" className="form-thanks">
        <h3 ref={thanks} tabIndex={-1} className="form-thanks-title">
          Thank You!
        </h3>
        <p className="mt-3">Your message has been sent successfully. We'll get back to you within 24 hours during business days.</p>
        <p className="mt-4 text-sm">
          <strong className="text-ink">What's next?</strong> A member of our team will review your message and reply by email to the address
          you gave.
        </p>
      </div>
    );
  }

  const sending = status === 'sending';
  const field = (name: ContactField) => ({
    id: `contact-${name}`,
    name,
    value: values[name],
    onChange,
    // A choice or a date has no length to limit (and no maxlength attribute).
    maxLength: CONTACT_RULES[name].options || CONTACT_RULES[name].outOfRange ? undefined : CONTACT_RULES[name].max,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `contact-${name}-error` : undefined,
    className: 'field-input',
  });
  const error = (name: ContactField) =>
    errors[name] ? (
      <p id={`contact-${name}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;
  /** A field with its label above and its message below. */
  const labelled = (name: ContactField, label: string, control: ReactNode, className?: string) => (
    <div key={name} className={className}>
      <label htmlFor={`contact-${name}`} className="field-label">
        {label}
      </label>
      {control}
      {error(name)}
    </div>
  );

  return (
    <>
      <form ref={form} onSubmit={onSubmit} method="post" noValidate aria-label="Contact form">
        <fieldset disabled={sending} className="grid gap-5">
          <div className="grid gap-5 sm:grid-cols-2">
            {FIELDS.map((f) =>
              labelled(
                f.name,
                f.label,
                <input {...field(f.name)} type={f.type ?? 'text'} autoComplete={f.autoComplete} aria-required={f.required || undefined} />,
              ),
            )}
          </div>
          <div>
            <label htmlFor="contact-message" className="field-label">
              Message
            </label>
            <textarea
              {...field('message')}
              rows={5}
              aria-required
              aria-describedby={errors.message ? 'contact-message-error contact-message-help' : 'contact-message-help'}
            />
            <p id="contact-message-help" className="mt-1.5 text-sm text-muted">
              For urgent requirements, add your solicitation or RFQ number and due date below.
            </p>
            {error('message')}
          </div>
          {/* The three optional buyer fields; the RFQ number gets a row of its own (its label is long). */}
          <div className="grid gap-5 sm:grid-cols-2">
            {labelled(
              'buyerType',
              'I am… (Optional)',
              <select {...field('buyerType')} className="field-select">
                <option value="">Choose one</option>
                {BUYER_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {BUYER_TYPE_LABELS[t]}
                  </option>
                ))}
              </select>,
            )}
            {labelled('responseDue', 'Response Due Date (Optional)', <input {...field('responseDue')} type="date" />)}
            {labelled(
              'solicitation',
              'Solicitation or RFQ Number (Optional)',
              <input {...field('solicitation')} autoComplete="off" />,
              'sm:col-span-2',
            )}
          </div>
          {/* Honeypot: hidden from people and assistive technology; bots fill it in. */}
          <div aria-hidden="true" className="off-screen">
            <label htmlFor="contact-website">Website</label>
            <input ref={honeypot} id="contact-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
          <div>
            <button type="submit" disabled={!hydrated} className="btn-primary w-full sm:w-auto">
              {sending ? 'Sending...' : 'Send Message'}
            </button>
          </div>
        </fieldset>
        <p className="sr-only" aria-live="assertive" role="alert">
          {announcement}
        </p>
      </form>
      {failure && (
        <div role="alert" className="toast-error">
          <p className="font-semibold">Error</p>
          <p className="mt-1 text-sm">{failure}</p>
          {/* Whatever went wrong, the visitor learns another way to reach us (unless the message gave one). */}
          {email && !failure.includes('@') && (
            <p className="mt-1 text-sm">
              You can also email us at{' '}
              <a className="underline" href={`mailto:${email}`}>
                {email}
              </a>
              .
            </p>
          )}
          <button type="button" onClick={() => setFailure(null)} className="mt-2 text-sm underline">
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}
