import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { api, errorMessage } from '#lib/api-client.ts';
import { forgotPasswordSchema, resetPasswordFormSchema, type ForgotPasswordInput, type ResetPasswordForm } from '#shared/schemas/auth.ts';
import { Field, useHydrated } from './field';
import { NewPasswordFields, newPasswordProblem } from './new-password-fields';

function Outcome({ tone, children }: { tone: 'ok' | 'error'; children: string }) {
  return (
    <p
      role={tone === 'ok' ? 'status' : 'alert'}
      className={`rounded-md border p-3 text-sm ${tone === 'ok' ? 'border-green-300 bg-green-50 text-green-900' : 'border-red-300 bg-red-50 text-red-900'}`}
    >
      {children}
    </p>
  );
}

/** /auth/forgot: asks for the account's e-mail and says the same whether or not an account uses it. */
export function ForgotPasswordForm() {
  const [outcome, setOutcome] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  const hydrated = useHydrated();

  const submit = async (values: ForgotPasswordInput) => {
    try {
      const answer = await api.post<{ message: string }>('/api/auth/forgot-password', values);
      setOutcome({ tone: 'ok', text: answer.message });
    } catch (err) {
      setOutcome({ tone: 'error', text: errorMessage(err, 'The request could not be sent. Please try again.') });
    }
  };

  return (
    <form onSubmit={handleSubmit(submit)} method="post" noValidate>
      <fieldset disabled={isSubmitting || !hydrated} className="flex flex-col gap-5">
        {/* Asking for the link is this page's only purpose: the field takes focus. */}
        {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
        <Field label="Email" type="email" autoComplete="email" autoFocus error={errors.email?.message} {...register('email')} />
        {outcome && <Outcome tone={outcome.tone}>{outcome.text}</Outcome>}
        <button type="submit" className="btn-primary w-full">
          {isSubmitting ? 'Sending...' : 'Send reset link'}
        </button>
        <a href="/auth" className="text-center text-sm font-semibold text-brand-700 underline">
          Back to sign in
        </a>
      </fieldset>
    </form>
  );
}

/**
 * /auth/reset#token=…: a new password with the password change's rules (length, confirmation,
 * strength). The token is read from the fragment, which the browser never sends to a server.
 */
export function ResetPasswordFormView() {
  const [token, setToken] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  useEffect(() => {
    // The static page cannot know the fragment: it is read once, after hydration.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setToken(new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '');
  }, []);

  const submit = async (values: ResetPasswordForm) => {
    const problem = await newPasswordProblem(values.newPassword);
    if (problem) return setError('newPassword', { message: problem }, { shouldFocus: true });
    try {
      const answer = await api.post<{ message: string }>('/api/auth/reset-password', { token, ...values });
      setOutcome({ tone: 'ok', text: answer.message });
      // The link is spent: keep it out of the history.
      history.replaceState(null, '', window.location.pathname);
    } catch (err) {
      setOutcome({ tone: 'error', text: errorMessage(err, 'The password could not be changed. Please try again.') });
    }
  };

  if (token === '')
    return <Outcome tone="error">This link is not complete. Open the link from the e-mail again, or ask for a new one.</Outcome>;
  if (outcome?.tone === 'ok')
    return (
      <div className="flex flex-col gap-5">
        <Outcome tone="ok">{outcome.text}</Outcome>
        <a href="/auth" className="btn-primary w-full">
          Sign in
        </a>
      </div>
    );
  return (
    <form onSubmit={handleSubmit(submit)} method="post" noValidate>
      <fieldset disabled={isSubmitting || token === null} className="flex flex-col gap-5">
        <NewPasswordFields register={(name) => register(name)} errors={errors} hint="8 to 128 characters, not easy to guess." />
        {outcome && <Outcome tone={outcome.tone}>{outcome.text}</Outcome>}
        <button type="submit" className="btn-primary w-full">
          {isSubmitting ? 'Saving...' : 'Set new password'}
        </button>
        <a href="/auth/forgot" className="text-center text-sm font-semibold text-brand-700 underline">
          Ask for a new link
        </a>
      </fieldset>
    </form>
  );
}
