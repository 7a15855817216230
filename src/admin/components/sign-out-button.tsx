import { useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { useToast } from '#components/ui/toast.tsx';
import { api, errorMessage } from '#lib/api-client.ts';
import { useConfirmLeave } from './unsaved-changes';

/** Ends the session (after the unsaved-changes guard) and returns to the sign-in page. */
export function SignOutButton() {
  const toast = useToast();
  const confirmLeave = useConfirmLeave();
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    if (!(await confirmLeave({ leavePage: true }))) return;
    setBusy(true);
    try {
      await api.post('/api/logout');
      // The sign-in page says so (it reads the query after hydration: the page itself is static).
      window.location.assign('/auth?signed-out');
    } catch (err) {
      setBusy(false);
      toast({ variant: 'destructive', title: 'Logout failed', description: errorMessage(err, 'Logout failed') });
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={() => void signOut()} disabled={busy}>
      {busy ? 'Signing out…' : 'Sign out'}
    </Button>
  );
}
