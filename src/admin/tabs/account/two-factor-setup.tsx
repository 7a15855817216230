import { useState, type SubmitEvent } from 'react';
import { digitsOnly, Field } from '#components/auth/field.tsx';
import { useToast } from '#components/ui/toast.tsx';
import { errorMessage } from '#lib/api-client.ts';
import type { TwoFactorSetup as Setup } from '#shared/responses.ts';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { useEnableTwoFactor } from './account-api';

interface Props {
  setup: Setup;
  onDone: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** The setup view: scan the QR code (or type the key), then prove it with a code. */
export function TwoFactorSetup({ setup, onDone, onCancel }: Props) {
  const toast = useToast();
  const enable = useEnableTwoFactor();
  const [code, setCode] = useState('');
  // The key may already be in the phone's app: leaving now would leave that entry useless.
  useUnsavedChanges(true);

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    try {
      const { recoveryCodes } = await enable.mutateAsync({ secret: setup.secret, token: code });
      toast({ title: '2FA Enabled', description: 'Two-factor authentication has been successfully enabled.' });
      onDone(recoveryCodes);
    } catch (err) {
      toast({ variant: 'destructive', title: 'Verification Failed', description: errorMessage(err, 'Invalid verification code') });
    }
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-body">
        <li>Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password…).</li>
        <li>Scan this QR code, or enter the key by hand.</li>
        <li>Type the 6-digit code the app shows.</li>
      </ol>
      <img
        src={setup.qrCode}
        alt="QR code for your authenticator app"
        width={200}
        height={200}
        className="h-[200px] w-[200px] rounded border border-line"
      />
      <div>
        <p className="text-sm font-semibold text-ink">Manual entry key</p>
        <code data-testid="manual-entry-key" className="mt-1 block rounded bg-surface px-3 py-2 font-mono text-sm break-all text-ink">
          {setup.manualEntryKey}
        </code>
      </div>
      <fieldset disabled={enable.isPending} className="flex flex-col gap-4">
        <Field
          label="Verification Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(digitsOnly(e.target.value))}
        />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary" disabled={code.length !== 6 || enable.isPending}>
            {enable.isPending ? 'Verifying...' : 'Verify and Enable'}
          </button>
          <button type="button" className="btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
    </form>
  );
}

/** Recovery codes: shown once, right after enabling, with Copy and Download (.txt) to keep them. */
export function RecoveryCodes({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  // Shown once: leaving before they are saved loses them.
  useUnsavedChanges(true);
  const toast = useToast();
  const text = `Back office recovery codes (each signs you in once):\n\n${codes.join('\n')}\n`;
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => toast({ title: 'Recovery codes copied' }),
      () => toast({ variant: 'destructive', title: 'Could not copy', description: 'Select the codes and copy them, or download them.' }),
    );
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-body">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They will not be shown again.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded bg-surface p-4 font-mono text-sm text-ink">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-secondary" onClick={() => void copy()}>
          Copy codes
        </button>
        <button type="button" className="btn-secondary" onClick={download}>
          Download (.txt)
        </button>
        <button type="button" className="btn-primary" onClick={onClose}>
          I have saved these codes
        </button>
      </div>
    </div>
  );
}
