import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { lazyNamed } from '../../components/lazy-form';
import { LoadingRows } from '../../components/load-state';
import { currentUserQuery } from './account-api';
import { LinkedSignInsCard } from './linked-sign-ins-card';
import { TwoFactorCard } from './two-factor-card';
import { errorMessage } from '#lib/api-client.ts';

// The password form (react-hook-form and its zod schema) follows the rest of the tab, which
// shows at once: who is signed in and two-factor authentication.
const ChangePasswordCard = lazyNamed(() => import('./change-password-card'), 'ChangePasswordCard');
// The signature form too (react-hook-form and its zod schema): the tab's first open stays small.
const SignatureCard = lazyNamed(() => import('./signature-card'), 'SignatureCard');

const formatDate = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Account tab: who is signed in, the reply signature, Change Password, Two-Factor Authentication,
 * and the provider sign-ins (Google, Microsoft) linked to the account.
 * The back-office shell lazy-loads this module inside its QueryClientProvider and ToastProvider.
 */
function AccountTab() {
  const user = useQuery(currentUserQuery);
  return (
    <div className="flex flex-col gap-6">
      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title" className="text-lg font-bold text-navy-900">
          Account
        </h2>
        {user.isPending && (
          <p role="status" className="mt-3">
            Loading...
          </p>
        )}
        {user.isError && <p className="mt-3 text-danger">Error: {errorMessage(user.error, 'Unknown error')}</p>}
        {user.data && (
          <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
            <dt className="font-semibold text-ink">Username</dt>
            <dd data-testid="account-username">{user.data.username}</dd>
            <dt className="font-semibold text-ink">Role</dt>
            <dd className="capitalize">{user.data.role}</dd>
            <dt className="font-semibold text-ink">Last Login</dt>
            <dd>{user.data.lastLoginAt ? formatDate(user.data.lastLoginAt) : 'Never'}</dd>
          </dl>
        )}
      </section>
      {user.data?.role === 'admin' && (
        <Suspense
          fallback={
            <section className="card" aria-label="Reply Signature">
              <LoadingRows rows={3} label="Loading your signature" />
            </section>
          }
        >
          <SignatureCard />
        </Suspense>
      )}
      <Suspense
        fallback={
          <section className="card" aria-label="Change Password">
            <LoadingRows rows={3} label="Loading the password form" />
          </section>
        }
      >
        <ChangePasswordCard />
      </Suspense>
      <TwoFactorCard />
      <LinkedSignInsCard />
    </div>
  );
}

export default AccountTab;
