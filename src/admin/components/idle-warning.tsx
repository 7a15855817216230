import { useEffect, useState } from 'react';
import { Button } from '#components/ui/button.tsx';
import { Dialog } from '#components/ui/dialog.tsx';
import { api, onSessionIdle } from '#lib/api-client.ts';

/** The warning shows this long before the idle sign-out. */
const WARN_MS = 2 * 60_000;

const clock = (ms: number) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * Two minutes before the server ends an unused session, asks whether to stay signed in; 'Stay
 * signed in' restarts the idle window on the server. The deadline comes from the server with
 * every signed-in answer, so a save or a refresh in another part of the back office counts.
 */
export function IdleWarning() {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [lost, setLost] = useState(false);

  useEffect(() => {
    const stop = onSessionIdle((d) => {
      setDeadline(d);
      setNow(Date.now());
    });
    return () => void stop();
  }, []);

  const left = deadline === null ? Infinity : deadline - now;
  useEffect(() => {
    if (!Number.isFinite(left) || left <= 0) return;
    // Asleep until the warning is due, then a tick a second for the countdown.
    const timer = setTimeout(() => setNow(Date.now()), left > WARN_MS ? left - WARN_MS : Math.min(1000, left));
    return () => clearTimeout(timer);
  }, [left]);

  const ended = lost || left <= 0;
  const stay = () =>
    void api.post('/api/user/keep-alive').catch(() => {
      setLost(true);
    });

  return (
    <Dialog
      open={ended || left <= WARN_MS}
      onOpenChange={(open) => !open && !ended && stay()}
      role="alertdialog"
      title={ended ? 'You have been signed out' : 'You will be signed out soon'}
      description={
        ended
          ? 'You were signed out after a time without activity. Sign in again to go on; long texts you had not saved are kept in this browser and offered back when you open them.'
          : `For your security the back office signs you out after a time without activity. You will be signed out in ${clock(left)}.`
      }
    >
      <div className="flex justify-end">
        {ended ? (
          <a
            href="/auth"
            className="inline-flex min-h-10 items-center rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-navy-800"
          >
            Sign in again
          </a>
        ) : (
          <Button onClick={stay}>Stay signed in</Button>
        )}
      </div>
    </Dialog>
  );
}
