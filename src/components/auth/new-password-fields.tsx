import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { Field } from './field';

interface Props {
  register: (name: 'newPassword' | 'confirmPassword') => UseFormRegisterReturn;
  errors: FieldErrors<{ newPassword: string; confirmPassword: string }>;
  hint?: string;
}

/** New password and its confirmation: the password change and the reset page ask the same way. */
export function NewPasswordFields({ register, errors, hint }: Props) {
  return (
    <>
      <Field
        label="New Password"
        type="password"
        autoComplete="new-password"
        hint={hint}
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <Field
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
    </>
  );
}

/** The server's strength check, loaded only when a new password is chosen (its word lists are large). */
export async function newPasswordProblem(password: string): Promise<string | null> {
  const { passwordProblem } = await import('#shared/password-strength.ts');
  return passwordProblem(password);
}
