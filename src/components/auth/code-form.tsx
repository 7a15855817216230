import { useState, type SubmitEvent } from 'react';
import { digitsOnly, Field, FormFailure } from './field';

interface Props {
  /** How the account gets its codes: named in the prompt (an e-mailed code is always sent and works too). */
  method?: 'app' | 'email';
  onVerify: (token: string) => Promise<void>;
  onBack: () => void;
  /** Why the last code was refused, said beside the field. */
  failure?: string;
}

/** Step two of /auth: the six-digit code (e-mailed, or from the app), or a recovery code. */
export function CodeForm({ onVerify, onBack, failure, method = 'email' }: Props) {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const ready = recovery ? code.trim().length >= 10 : code.length === 6;

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (!ready) {
      setError('Verification code must be 6 digits.');
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      await onVerify(code.trim());
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <fieldset disabled={busy} className="flex flex-col gap-5">
        <p className="text-body">
          {method === 'app' ? 'Enter the 6-digit code from your authenticator app' : 'Check your email for a 6-digit verification code'}
        </p>
        {recovery ? (
          <Field
            label="Recovery code"
            autoComplete="off"
            // The code step replaces the password step: focus moves to the field it asks for.
            // eslint-disable-next-line jsx-a11y/no-autofocus
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value.slice(0, 20))}
            error={error}
          />
        ) : (
          <Field
            label="Verification code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            // eslint-disable-next-line jsx-a11y/no-autofocus
            autoFocus
            value={code}
            onChange={(e) => setCode(digitsOnly(e.target.value))}
            error={error}
            hint={method === 'app' ? 'The code e-mailed to you works too.' : 'The code from your authenticator app works too.'}
          />
        )}
        <FormFailure message={failure} />
        <button type="submit" className="btn-primary w-full" disabled={!ready || busy}>
          {busy ? 'Verifying...' : 'Verify Code'}
        </button>
        <button type="button" className="btn-secondary w-full" onClick={onBack}>
          Back to Login
        </button>
        <button
          type="button"
          className="text-sm font-medium text-brand-700 underline"
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
            setError(undefined);
          }}
        >
          {recovery ? 'Use a 6-digit code instead' : 'Use a recovery code instead'}
        </button>
      </fieldset>
    </form>
  );
}
