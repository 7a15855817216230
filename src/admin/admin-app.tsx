import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ToastProvider } from '#components/ui/toast.tsx';
import { createQueryClient } from '#lib/query-client.ts';
import { currentUserQuery } from './api/session';
import { AdminLoadingFrame } from './components/admin-frame';
import { AdminShell } from './components/admin-shell';
import { UnsavedChangesProvider } from './components/unsaved-changes';

/** The back office (SPEC 2.15), mounted client-only by src/pages/admin/index.astro. */
export function AdminApp() {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>
        <UnsavedChangesProvider>
          <AdminGuard />
        </UnsavedChangesProvider>
      </ToastProvider>
    </QueryClientProvider>
  );
}

/** The frame with a spinner and skeletons while the current user loads; no user, or not an admin → /auth. */
function AdminGuard() {
  const { data: user, isPending, isError } = useQuery(currentUserQuery);
  const allowed = user?.role === 'admin';
  useEffect(() => {
    if (!isPending && (isError || !allowed)) window.location.replace('/auth');
  }, [isPending, isError, allowed]);

  if (isPending) return <AdminLoadingFrame />;
  return <AdminShell user={allowed ? user : null} />;
}
