import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ChangeEvent, type FormEvent } from 'react';
import {
  BUYER_TYPE_LABELS,
  BUYER_TYPES,
  CONTACT_RULES,
  contactErrors,
  responseDueBounds,
  type ContactField,
} from '#shared/contact-rules.ts';

type Values = Required<{ [K in ContactField]: string }>;

/** The spoken summary of the invalid fields, or '' when there are none. */
function summary(errors: Partial<Record<ContactField, string>>): string {
  const invalid = Object.keys(errors) as ContactField[];
  if (invalid.length === 0) return '';
  return `${invalid.length === 1 ? 'One field needs' : `${invalid.length} fields need`} attention: ${invalid.map((f) => errors[f]).join('. ')}.`;
}
const EMPTY: Values = { name: '', email: '', company: '', phone: '', message: '', buyerType: '', solicitation: '', responseDue: '' };
/**
 * The messages for these values. A date typed only in part reaches us as '' (the input's
 * badInput), so the input itself is asked: the visitor hears about it rather than losing it.
 */
function check(values: Values, form: HTMLFormElement | null): Partial<Record<ContactField, string>> {
  const found = contactErrors(values);
  const due = form?.elements.namedItem('responseDue') as HTMLInputElement | null | undefined;
  if (!found.responseDue && due?.validity.badInput) found.responseDue = CONTACT_RULES.responseDue.invalid;
  return found;
}
const noSubscription = () => () => {};

const FIELDS: { name: ContactField; label: string; type?: string; autoComplete: string; required?: boolean }[] = [
  { name: 'name', label: 'Full Name', autoComplete: 'name', required: true },
  { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email', required: true },
  { name: 'company', label: 'Company (Optional)', autoComplete: 'organization' },
  { name: 'phone', label: 'Phone Number (Optional)', type: 'tel', autoComplete: 'tel' },
];

/**
 * SPEC 2.10, 4, 5: validates on submit, then on every change; 'Sending...' while busy; a Thank
 * You panel for 5 s, then an empty form; on failure a destructive toast and the values kept.
 * Plain state instead of react-hook-form keeps this island inside its JavaScript budget.
 */
function ContactFormInner({ successMs, email }: { successMs: number; email?: string }) {
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
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
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
    let any = false;
    for (const name of Object.keys(EMPTY) as ContactField[]) {
      const input = el.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null;
      if (input?.value) {
        typed[name] = input.value;
        any = true;
      }
    }
    if (any) setValues(typed);
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
    const found = check(next, e.target.form);
    setErrors(found);
    // The screen-reader summary follows the fields: a corrected field leaves it, and it empties
    // once all are valid. The same text is not announced again while nothing changes.
    if (announcement) setAnnouncement(summary(found));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = check(values, e.currentTarget as HTMLFormElement);
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
    try {
      const body = {
        ...values,
        website: honeypot.current?.value ?? '',
        elapsedMs: Date.now() - openedAt.current,
      };
      // Plain fetch, not the shared client + toast: those would push /contact past its JS budget.
      let message = 'Failed to send message. Please try again.';
      const res = await fetch('/api/contact', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).catch(() => null);
      if (res?.ok) {
        await res.json().catch(() => null);
        setFailure(null);
        setStatus('sent');
        return;
      }
      if (res) message = ((await res.json().catch(() => null)) as { message?: string } | null)?.message || message;
      setStatus('idle');
      setFailure(message);
    } catch {
      setStatus('idle');
      setFailure('Failed to send message. Please try again.');
    }
  };

  if (status === 'sent') {
    return (
      <div role="status" className="rounded-lg border border-brand-100 bg-brand-50 p-6 text-center">
        <h3 ref={thanks} tabIndex={-1} className="text-2xl font-bold text-ink focus:outline-none">
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
    maxLength: CONTACT_RULES[name].options || CONTACT_RULES[name].date ? undefined : CONTACT_RULES[name].max,
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

  return (
    <>
      <form ref={form} onSubmit={onSubmit} method="post" noValidate aria-label="Contact form">
        <fieldset disabled={sending} className="grid gap-5">
          <div className="grid gap-5 sm:grid-cols-2">
            {FIELDS.map((f) => (
              <div key={f.name}>
                <label htmlFor={`contact-${f.name}`} className="field-label">
                  {f.label}
                </label>
                <input {...field(f.name)} type={f.type ?? 'text'} autoComplete={f.autoComplete} aria-required={f.required || undefined} />
                {error(f.name)}
              </div>
            ))}
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
              For urgent requirements, add your solicitation or RFQ number and response due date below.
            </p>
            {error('message')}
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            <div>
              <label htmlFor="contact-buyerType" className="field-label">
                I am… (Optional)
              </label>
              <select {...field('buyerType')}>
                <option value="">Choose one</option>
                {BUYER_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {BUYER_TYPE_LABELS[t]}
                  </option>
                ))}
              </select>
              {error('buyerType')}
            </div>
            <div>
              <label htmlFor="contact-solicitation" className="field-label">
                Solicitation or RFQ Number (Optional)
              </label>
              <input {...field('solicitation')} type="text" autoComplete="off" spellCheck={false} />
              {error('solicitation')}
            </div>
            <div>
              <label htmlFor="contact-responseDue" className="field-label">
                Response Due Date (Optional)
              </label>
              {/* The accepted range depends on today, so it is set in the browser, not baked into the page. */}
              <input {...field('responseDue')} type="date" {...(hydrated ? responseDueBounds() : {})} />
              {error('responseDue')}
            </div>
          </div>
          {/* Honeypot: hidden from people and assistive technology; bots fill it in. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
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
        <div
          role="alert"
          className="fixed right-4 bottom-4 z-50 max-w-sm rounded-lg border border-red-700 bg-red-700 p-4 text-white shadow-lg"
        >
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

/**
 * `successMs`: how long the Thank You panel stays (5000 ms), passed in to keep constants
 * out of the bundle. `email`: the business's public address, offered when sending fails.
 */
export function ContactForm({ successMs, email }: { successMs: number; email?: string }) {
  return <ContactFormInner successMs={successMs} email={email} />;
}
