import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Spinner } from '#components/ui/spinner.tsx';
import { ToastProvider } from '#components/ui/toast.tsx';
import { createQueryClient } from '#lib/query-client.ts';
import { currentUserQuery } from './api/session';
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

/** Spinner while the current user loads; no user, or not an admin → /auth. */
function AdminGuard() {
  const { data: user, isPending, isError } = useQuery(currentUserQuery);
  const allowed = user?.role === 'admin';
  useEffect(() => {
    if (!isPending && (isError || !allowed)) window.location.replace('/auth');
  }, [isPending, isError, allowed]);

  if (isPending) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Checking your session" />
      </div>
    );
  }
  return <AdminShell user={allowed ? user : null} />;
}
