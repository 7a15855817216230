import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ChangeEvent, type Ref, type SubmitEvent } from 'react';
import { CONTACT_FIELDS, contactErrors, type ContactField } from '#shared/contact-rules.ts';
import { BuyerFields, MessageField, PersonFields, type Errors, type Values } from './contact-form-fields';

const noSubscription = () => () => {};
const isClient = () => true;
const isServer = () => false;

/** The spoken summary of the invalid fields, or '' when there are none. */
function summary(errors: Errors): string {
  const invalid = Object.keys(errors) as ContactField[];
  if (invalid.length === 0) return '';
  return `${invalid.length === 1 ? 'One field needs' : `${invalid.length} fields need`} attention: ${invalid.map((f) => errors[f]).join('. ')}.`;
}
const EMPTY = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, ''])) as Values;

/**
 * `successMs`: how long the Thank You panel stays (5000 ms), passed in to keep constants
 * out of the bundle. `email`: the business's public address, offered when sending fails.
 *
 * SPEC 2.10, 4, 5: validates on submit, then on every change; 'Sending...' while busy; a Thank
 * You panel for 5 s, then an empty form; on failure a destructive toast and the values kept.
 * Plain state instead of react-hook-form keeps this island inside its JavaScript budget.
 */
export function ContactForm({ successMs, email }: { successMs: number; email?: string }) {
  const [failure, setFailure] = useFailure();
  const { form, thanks, honeypot, status, values, errors, announcement, hydrated, onChange, onSubmit } = useContactForm(
    successMs,
    setFailure,
  );
  if (status === 'sent') return <ThankYou ref={thanks} />;
  const sending = status === 'sending';
  return (
    <>
      <form ref={form} onSubmit={onSubmit} method="post" noValidate aria-label="Contact form">
        <fieldset disabled={sending} className="grid gap-5">
          <PersonFields values={values} errors={errors} onChange={onChange} />
          <MessageField values={values} errors={errors} onChange={onChange} />
          <BuyerFields values={values} errors={errors} onChange={onChange} />
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
      {failure && <FailureToast failure={failure} email={email} onDismiss={() => setFailure(null)} />}
    </>
  );
}

/** Why sending failed, shown for 5 s (or until dismissed). */
function useFailure() {
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (!failure) return;
    const t = setTimeout(() => setFailure(null), 5000);
    return () => clearTimeout(t);
  }, [failure]);
  return [failure, setFailure] as const;
}

/**
 * Sends the message. Plain fetch, not the shared client + toast: those would push /contact past
 * its JS budget. Nothing here throws: a network failure is null.
 */
function postContact(body: Values & { website: string; elapsedMs: number }): Promise<Response | null> {
  return fetch('/api/contact', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => null);
}

/** The answer's message, or a general one (an unreadable answer or none at all). */
async function failureOf(res: Response | null): Promise<string> {
  return ((await res?.json().catch(() => null)) as { message?: string } | null)?.message || 'Failed to send message. Please try again.';
}

/** The form's state: the values, their messages once submitted, sending and the Thank You panel. */
function useContactForm(successMs: number, setFailure: (failure: string | null) => void) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
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
    const res = await postContact({ ...values, website: honeypot.current?.value ?? '', elapsedMs: Date.now() - openedAt.current });
    if (res?.ok) {
      // Read to the end, so the answer's connection is done with.
      await res.json().catch(() => null);
      setFailure(null);
      setStatus('sent');
      return;
    }
    setStatus('idle');
    setFailure(await failureOf(res));
  };

  return { form, thanks, honeypot, status, values, errors, announcement, hydrated, onChange, onSubmit };
}

function ThankYou({ ref }: { ref: Ref<HTMLHeadingElement> }) {
  return (
    <div role="status" className="form-thanks">
      <h3 ref={ref} tabIndex={-1} className="form-thanks-title">
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

/** The destructive toast: what went wrong, and another way to reach us (unless the message gave one). */
function FailureToast({ failure, email, onDismiss }: { failure: string; email?: string; onDismiss: () => void }) {
  return (
    <div role="alert" className="toast-error">
      <p className="font-semibold">Error</p>
      <p className="mt-1 text-sm">{failure}</p>
      {email && !failure.includes('@') && (
        <p className="mt-1 text-sm">
          You can also email us at{' '}
          <a className="underline" href={`mailto:${email}`}>
            {email}
          </a>
          .
        </p>
      )}
      <button type="button" onClick={onDismiss} className="mt-2 text-sm underline">
        Dismiss
      </button>
    </div>
  );
}
