import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { providerLinkSchema, type ProviderLinkInput } from '#shared/schemas/auth.ts';
import { Field, FormFailure } from './field';

interface Props {
  /** The provider's name as people read it (Google, Microsoft). */
  provider: string;
  failure?: string;
  onSubmit: (values: ProviderLinkInput) => Promise<void>;
  onBack: () => void;
}

/**
 * The link step of /auth: a provider sign-in whose address belongs to an account here, from a
 * provider account not yet linked to it. The account's password links them (once).
 */
export function LinkForm({ provider, failure, onSubmit, onBack }: Props) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ProviderLinkInput>({ resolver: zodResolver(providerLinkSchema), defaultValues: { password: '' } });

  return (
    <form onSubmit={handleSubmit(onSubmit)} method="post" noValidate>
      <fieldset disabled={isSubmitting} className="flex flex-col gap-5">
        <p className="text-body">
          An account here already uses the e-mail address of your {provider} account. To link {provider} to it, enter the account&apos;s
          password. You need to do this once, and the account is sent an e-mail saying so.
        </p>
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          // The link step replaces the password step: focus moves to the field it asks for.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          error={errors.password?.message}
          {...register('password')}
        />
        <FormFailure message={failure} />
        <button type="submit" className="btn-primary w-full">
          {isSubmitting ? 'Linking...' : `Link ${provider} and Sign In`}
        </button>
        <button type="button" className="btn-secondary w-full" onClick={onBack}>
          Back to Login
        </button>
      </fieldset>
    </form>
  );
}
