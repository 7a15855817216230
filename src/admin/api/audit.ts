import { queryOptions } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';

export interface AuditEntry {
  id: number;
  actorName: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  /** What the row is called; null on rows written before it was recorded. */
  subject: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  createdAt: string;
}

/** The latest changes; refetched each time the Activity panel opens. */
export const auditQuery = queryOptions({
  queryKey: ['admin', 'audit'] as const,
  queryFn: () => api.get<AuditEntry[]>('/api/admin/audit?limit=50'),
  staleTime: 0,
});
