import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False in the server's HTML and until the island hydrates, then true. A form rendered by the
 * server would, if submitted before hydration, be sent by the browser itself (a GET with every
 * field in the address, a password included): its controls wait for this instead.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
