import { useEffect } from 'react';

/** The contact details the setup checklist and the red banner send the administrator to fix. */
export type ContactField = 'email' | 'phone' | 'address';

const EVENT = 'admin:edit-contact-field';
let pending: ContactField | null = null;

/**
 * Asks the Contacts tab's contact-details editor to open the active record with `field` focused.
 * Called from a link to `#contacts`: when that tab is not open yet, the request waits until its
 * editor mounts; when it is, the editor hears it at once.
 */
export function requestContactField(field: ContactField): void {
  pending = field;
  window.dispatchEvent(new Event(EVENT));
}

/** The editor's side: `open` runs for a request made before it mounted and for each one after. */
export function useContactFieldRequests(open: (field: ContactField) => void): void {
  useEffect(() => {
    const take = () => {
      const field = pending;
      pending = null;
      if (field) open(field);
    };
    take();
    window.addEventListener(EVENT, take);
    return () => window.removeEventListener(EVENT, take);
  }, [open]);
}
