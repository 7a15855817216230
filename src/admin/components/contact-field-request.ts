import { useEffect } from 'react';

/** The contact details the setup checklist and the red banner send the administrator to fix. */
export type ContactField = 'email' | 'phone' | 'address';
/** The company profile's fields the setup checklist sends the administrator to fill. */
export type CompanyField = 'uei' | 'cageCode' | 'procurementEmail' | 'samActive';

const EVENT = 'admin:edit-contact-field';
let pending: ContactField | null = null;
const COMPANY_EVENT = 'admin:edit-company-field';
let pendingCompany: CompanyField | null = null;

/** Asks the Company tab to open its form with `field` focused (waiting, like the contact request, until it mounts). */
export function requestCompanyField(field: CompanyField): void {
  pendingCompany = field;
  window.dispatchEvent(new Event(COMPANY_EVENT));
}

/** The Company tab's side of requestCompanyField. */
export function useCompanyFieldRequests(open: (field: CompanyField) => void): void {
  useEffect(() => {
    const take = () => {
      const field = pendingCompany;
      pendingCompany = null;
      if (field) open(field);
    };
    take();
    window.addEventListener(COMPANY_EVENT, take);
    return () => window.removeEventListener(COMPANY_EVENT, take);
  }, [open]);
}

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
