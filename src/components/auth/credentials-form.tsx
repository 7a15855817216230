import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { loginSchema, type LoginInput } from '#shared/schemas/auth.ts';
import { Field, FormFailure, useHydrated } from './field';

interface Props {
  defaultUsername: string;
  providers: string[];
  /** Why the last sign-in failed (wrong password, locked…), said beside the fields. */
  failure?: string;
  onSubmit: (values: LoginInput) => Promise<void>;
}

const PROVIDER_LABELS: Record<string, string> = { google: 'Google', microsoft: 'Microsoft' };

/** Step one of /auth: username or e-mail and password (SPEC 2.14, 5). */
export function CredentialsForm({ defaultUsername, providers, failure, onSubmit }: Props) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { username: defaultUsername, password: '' } });

  // Nothing can be typed or sent before the island hydrates (see useHydrated).
  const hydrated = useHydrated();

  return (
    <form onSubmit={handleSubmit(onSubmit)} method="post" noValidate>
      <fieldset disabled={isSubmitting || !hydrated} className="flex flex-col gap-5">
        {/* Signing in is this page's only purpose: the first field takes focus. */}
        {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
        <Field label="Username or Email" autoComplete="username" autoFocus error={errors.username?.message} {...register('username')} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <FormFailure message={failure} />
        <button type="submit" className="btn-primary w-full">
          {isSubmitting ? 'Signing in...' : 'Sign In'}
        </button>
      </fieldset>
      {providers.length > 0 && (
        <div className="mt-6 flex flex-col gap-3">
          <p className="text-center text-sm text-muted">or</p>
          {providers.map((p) => (
            // A browser navigation, not a data call (SPEC 7): the provider flow needs the full page.
            <a key={p} href={`/api/auth/${p}`} className="btn-secondary w-full">
              Sign in with {PROVIDER_LABELS[p] ?? p}
            </a>
          ))}
        </div>
      )}
    </form>
  );
}
