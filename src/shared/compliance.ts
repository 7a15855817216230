/*
 * Compliance statements' statuses, shared by the Company tab (which loads no zod until its form
 * opens), the schema and the pages.
 */

/**
 * What a compliance row says of the business (the federal page's Status column): only "Yes" shows a
 * check mark, and a "No" row is kept in the back office but not shown.
 */
export const COMPLIANCE_STATUSES = ['yes', 'pending', 'on-request', 'no'] as const;
export type ComplianceStatus = (typeof COMPLIANCE_STATUSES)[number];
export const COMPLIANCE_STATUS_LABELS: Record<ComplianceStatus, string> = {
  yes: 'Yes',
  pending: 'Pending',
  'on-request': 'On request',
  no: 'No',
};

/**
 * A status a statement's own words imply ('GSA MAS schedule pending', 'Certificates available upon
 * request'), else Yes: what an install from before statuses existed gets for each statement (its
 * migration says the same in SQL) and what a bare text sent to the API means.
 */
export function impliedComplianceStatus(text: string): ComplianceStatus {
  if (/\bpending\b/i.test(text)) return 'pending';
  if (/\b(?:up)?on request\b/i.test(text)) return 'on-request';
  return 'yes';
}
