import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from '#lib/api-client.ts';
import type { SessionUser } from '#shared/session.ts';

const sessionKeys = { user: ['user'] as const };

/** GET /api/user: a 401 means signed out (SPEC 6); no retry, no refetch on focus. */
export const currentUserQuery = queryOptions({
  queryKey: sessionKeys.user,
  queryFn: async (): Promise<SessionUser | null> => {
    try {
      return (await api.get<{ user: SessionUser }>('/api/user')).user ?? null;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }
  },
});
