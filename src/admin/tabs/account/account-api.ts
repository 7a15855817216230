import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#lib/api-client.ts';
import type { TwoFactorSetup, TwoFactorStatus } from '#shared/responses.ts';
import type { ChangePasswordInput } from '#shared/schemas/auth.ts';
import type { Signature, SignatureInput } from '#shared/schemas/signature.ts';
import type { SessionUser } from '#shared/session.ts';

/** Query keys and calls of the Account tab (SPEC 7 "Session and authentication"). */
const accountKeys = {
  user: ['user'] as const,
  twoFactor: ['auth', '2fa', 'status'] as const,
};

export const currentUserQuery = queryOptions({
  queryKey: accountKeys.user,
  queryFn: () => api.get<{ user: SessionUser }>('/api/user').then((r) => r.user),
});

export const twoFactorStatusQuery = queryOptions({
  queryKey: accountKeys.twoFactor,
  queryFn: () => api.get<TwoFactorStatus>('/api/auth/2fa/status'),
});

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => api.post<{ message: string }>('/api/user/change-password', input),
  });
}

export function useStartSetup() {
  return useMutation({ mutationFn: () => api.post<TwoFactorSetup>('/api/auth/2fa/setup') });
}

function useRefreshTwoFactor() {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: accountKeys.twoFactor }), client.invalidateQueries({ queryKey: accountKeys.user })]);
}

export function useEnableTwoFactor() {
  const refresh = useRefreshTwoFactor();
  return useMutation({
    mutationFn: (input: { secret: string; token: string }) => api.post<{ recoveryCodes: string[] }>('/api/auth/2fa/enable', input),
    onSuccess: refresh,
  });
}

export function useDisableTwoFactor() {
  const refresh = useRefreshTwoFactor();
  return useMutation({
    mutationFn: (input: { currentPassword: string; token: string }) => api.post('/api/auth/2fa/disable', input),
    onSuccess: refresh,
  });
}

export interface LinkedIdentity {
  id: string;
  provider: string;
  name: string;
  linkedAt: string;
}

const identitiesKey = ['user', 'identities'] as const;

export const identitiesQuery = queryOptions({
  queryKey: identitiesKey,
  queryFn: () => api.get<{ identities: LinkedIdentity[] }>('/api/user/identities').then((r) => r.identities),
});

export function useUnlinkIdentity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message: string }>(`/api/user/identities/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: identitiesKey }),
  });
}

const signatureKey = ['user', 'signature'] as const;

/** The signed-in administrator's own signature for replies. */
export const signatureQuery = queryOptions({
  queryKey: signatureKey,
  queryFn: () => api.get<Signature>('/api/user/signature'),
});

export function useSaveSignature() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SignatureInput) => api.put<Signature>('/api/user/signature', input),
    onSuccess: (saved) => client.setQueryData(signatureKey, saved),
  });
}
