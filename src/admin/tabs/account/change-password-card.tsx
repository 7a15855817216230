import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Field } from '#components/auth/field.tsx';
import { NewPasswordFields, newPasswordProblem } from '#components/auth/new-password-fields.tsx';
import { useToast } from '#components/ui/toast.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { changePasswordFormSchema, type ChangePasswordForm } from '#shared/schemas/auth.ts';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { useChangePassword } from './account-api';

const EMPTY: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Change Password card (SPEC 2.15, 5): other sessions of the account end on success. */
export function ChangePasswordCard() {
  const toast = useToast();
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ChangePasswordForm>({ resolver: zodResolver(changePasswordFormSchema), defaultValues: EMPTY });
  useUnsavedChanges(isDirty);

  const submit = async (values: ChangePasswordForm) => {
    const problem = await newPasswordProblem(values.newPassword);
    if (problem) return setError('newPassword', { message: problem }, { shouldFocus: true });
    try {
      await change.mutateAsync(values);
      toast({ title: 'Password Changed', description: 'Your password has been updated successfully.' });
      reset(EMPTY);
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: errorMessage(err, 'Failed to change password. Please check your current password and try again.'),
      });
    }
  };

  return (
    <section className="card" aria-labelledby="change-password-title">
      <h2 id="change-password-title" className="text-lg font-bold text-navy-900">
        Change Password
      </h2>
      <p className="mt-1 text-sm text-muted">
        New passwords need 8 to 128 characters and must not be easy to guess. Your other sessions are signed out.
      </p>
      <form onSubmit={handleSubmit(submit)} noValidate className="mt-5">
        <fieldset disabled={isSubmitting} className="flex flex-col gap-4">
          <Field
            label="Current Password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...register('currentPassword')}
          />
          <NewPasswordFields register={(name) => register(name)} errors={errors} />
          <button type="submit" className="btn-primary self-start">
            {isSubmitting ? 'Changing...' : 'Change Password'}
          </button>
        </fieldset>
      </form>
    </section>
  );
}
