import { useCallback, useEffect } from 'react';
import type { ChecklistRecord } from '#shared/launch-checklist.ts';

/*
 * Links that open an editor in another tab at a field or a record: the launch checklist's and the
 * red banner's. Each kind of request is a channel: a link sends the request and switches tabs; the
 * editor takes it when it mounts (a request sent before it mounted waits) or at once if it is open.
 */

/** The contact details the launch checklist and the red banner send the administrator to fix. */
export type ContactField = 'email' | 'phone' | 'address';
/** The company profile's fields the launch checklist sends the administrator to fill (a field name of its form). */
export type CompanyField = string;

interface Channel<T> {
  event: string;
  pending: T | null;
}

const channel = <T>(event: string): Channel<T> => ({ event, pending: null });

function send<T>(c: Channel<T>, value: T): void {
  c.pending = value;
  window.dispatchEvent(new Event(c.event));
}

/** The editor's side: `take` is offered each request, and answers true when it took it (it is then forgotten). */
function useChannel<T>(c: Channel<T>, take: (value: T) => boolean): void {
  useEffect(() => {
    const offer = () => {
      if (c.pending !== null && take(c.pending)) c.pending = null;
    };
    offer();
    window.addEventListener(c.event, offer);
    return () => window.removeEventListener(c.event, offer);
  }, [c, take]);
}

const CONTACT = channel<ContactField>('admin:edit-contact-field');
const COMPANY = channel<CompanyField>('admin:edit-company-field');
const RECORD = channel<ChecklistRecord>('admin:edit-record');

/** Asks the Contacts tab's contact-details editor to open the active record with `field` focused. */
export function requestContactField(field: ContactField): void {
  send(CONTACT, field);
}

/** The contact-details editor's side: `open` runs for a request made before it mounted and for each one after. */
export function useContactFieldRequests(open: (field: ContactField) => void): void {
  useChannel(
    CONTACT,
    useCallback((field: ContactField) => (open(field), true), [open]),
  );
}

/** Asks the Company tab to open its form with `field` focused. */
export function requestCompanyField(field: CompanyField): void {
  send(COMPANY, field);
}

/** The Company tab's side of requestCompanyField. */
export function useCompanyFieldRequests(open: (field: CompanyField) => void): void {
  useChannel(
    COMPANY,
    useCallback((field: CompanyField) => (open(field), true), [open]),
  );
}

/** Asks the editor of `record` (the home page header, a block, a card, a service, an article) to open it for editing. */
export function requestRecord(record: ChecklistRecord): void {
  send(RECORD, record);
}

/** An editor's side of requestRecord: `open` answers true when the record is its own (the request is then taken). */
export function useRecordRequests(open: (record: ChecklistRecord) => boolean): void {
  useChannel(RECORD, open);
}

/**
 * A list editor's side of requestRecord: once its rows are loaded, the row a request names (by
 * kind, `section` and id) opens in `open`.
 */
export function useRowRequests<T extends { id: number }>(
  kind: ChecklistRecord['kind'],
  section: string | undefined,
  rows: readonly T[] | undefined,
  open: (row: T) => void,
): void {
  useRecordRequests(
    useCallback(
      (r: ChecklistRecord) => {
        if (r.kind !== kind || (section !== undefined && r.section !== section) || !rows) return false;
        const row = rows.find((x) => x.id === r.id);
        if (row) open(row);
        return true;
      },
      [kind, section, rows, open],
    ),
  );
}
