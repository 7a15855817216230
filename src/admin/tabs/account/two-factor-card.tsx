import { useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { digitsOnly, Field } from '#components/auth/field.tsx';
import { useToast } from '#components/ui/toast.tsx';
import { errorMessage } from '#lib/api-client.ts';
import type { TwoFactorSetup as Setup } from '#shared/responses.ts';
import { twoFactorStatusQuery, useDisableTwoFactor, useStartSetup } from './account-api';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { RecoveryCodes, TwoFactorSetup } from './two-factor-setup';

type View = { kind: 'status' } | { kind: 'setup'; setup: Setup } | { kind: 'codes'; codes: string[] };

/** Two-Factor Authentication card (SPEC 2.15, 4 "2FA panel": status → setup → status). */
export function TwoFactorCard() {
  const toast = useToast();
  const status = useQuery(twoFactorStatusQuery);
  const start = useStartSetup();
  const [view, setView] = useState<View>({ kind: 'status' });

  const begin = async () => {
    try {
      setView({ kind: 'setup', setup: await start.mutateAsync() });
    } catch (err) {
      toast({ variant: 'destructive', title: 'Setup Failed', description: errorMessage(err, 'Failed to start two-factor setup') });
    }
  };

  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="text-lg font-bold text-navy-900">
        Two-Factor Authentication
      </h2>
      <p className="mt-1 text-sm text-muted">Protect the admin account with a code from an authenticator app as well as the password.</p>
      <div className="mt-5">
        {status.isPending && <p role="status">Loading...</p>}
        {status.isError && <p className="text-danger">Error: {errorMessage(status.error, 'Unknown error')}</p>}
        {status.data && view.kind === 'status' && (
          <div className="flex flex-col gap-4">
            <p>
              Status:{' '}
              <strong data-testid="two-factor-status" className={status.data.enabled ? 'text-brand-700' : 'text-muted'}>
                {status.data.enabled ? 'Enabled' : 'Disabled'}
              </strong>
              {status.data.enabled && (
                <span className="ml-2 text-sm text-muted">({status.data.recoveryCodesRemaining} recovery codes left)</span>
              )}
            </p>
            {status.data.enabled ? (
              <DisableForm />
            ) : (
              <button type="button" className="btn-primary self-start" onClick={begin} disabled={start.isPending}>
                {start.isPending ? 'Starting...' : 'Enable 2FA'}
              </button>
            )}
          </div>
        )}
        {view.kind === 'setup' && (
          <TwoFactorSetup
            setup={view.setup}
            onDone={(codes) => setView({ kind: 'codes', codes })}
            onCancel={() => setView({ kind: 'status' })}
          />
        )}
        {view.kind === 'codes' && <RecoveryCodes codes={view.codes} onClose={() => setView({ kind: 'status' })} />}
      </div>
    </section>
  );
}

function DisableForm() {
  const toast = useToast();
  const disable = useDisableTwoFactor();
  const [currentPassword, setPassword] = useState('');
  const [token, setToken] = useState('');
  useUnsavedChanges(currentPassword !== '' || token !== '');

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    try {
      await disable.mutateAsync({ currentPassword, token });
      toast({ title: '2FA Disabled', description: 'Two-factor authentication has been disabled.' });
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Disable Failed',
        description: errorMessage(err, 'Failed to disable two-factor authentication'),
      });
    }
  };

  return (
    <form onSubmit={submit} noValidate className="rounded-md border border-line p-4">
      <h3 className="font-semibold text-ink">Disable Two-Factor Authentication</h3>
      <fieldset disabled={disable.isPending} className="mt-3 flex flex-col gap-4">
        <Field
          label="Current Password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Field
          label="Authentication Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={token}
          onChange={(e) => setToken(digitsOnly(e.target.value))}
        />
        <button type="submit" className="btn-secondary self-start" disabled={!currentPassword || token.length !== 6 || disable.isPending}>
          {disable.isPending ? 'Disabling...' : 'Disable 2FA'}
        </button>
      </fieldset>
    </form>
  );
}
