import { QueryClient } from '@tanstack/react-query';

/**
 * SPEC 7 defaults, set once: cached data never goes stale, no refetch on focus, no polling
 * (the submission list opts in), no retry for queries or mutations.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: false, refetchInterval: false },
      mutations: { retry: false },
    },
  });
}
