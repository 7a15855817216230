import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useForm, type Resolver } from 'react-hook-form';
import { Field } from '#components/auth/field.tsx';
import { useToast } from '#components/ui/toast.tsx';
import { errorMessage } from '#lib/api-client.ts';
import { signatureSchema, type Signature, type SignatureInput } from '#shared/schemas/signature.ts';
import { LoadingRows } from '../../components/load-state';
import { useUnsavedChanges } from '../../components/unsaved-changes';
import { signatureQuery, useSaveSignature } from './account-api';

const toForm = (s: Signature): SignatureInput => ({ name: s.name ?? '', title: s.title ?? '', phone: s.phone ?? '' });

/**
 * Reply Signature card: the administrator's own name, title and phone, which sign the replies they
 * send instead of the company's name alone (GET/PUT /api/user/signature).
 */
export function SignatureCard() {
  const signature = useQuery(signatureQuery);
  return (
    <section className="card" aria-labelledby="signature-title">
      <h2 id="signature-title" className="text-lg font-bold text-navy-900">
        Reply Signature
      </h2>
      <p className="mt-1 text-sm text-muted">
        Replies you send sign with your name, title and phone, then the company&rsquo;s name, e-mail and website. Without a name they sign
        with the company.
      </p>
      {signature.isPending && <LoadingRows rows={3} label="Loading your signature" />}
      {signature.isError && <p className="mt-3 text-danger">Error: {errorMessage(signature.error, 'Unknown error')}</p>}
      {signature.data && <SignatureForm key={JSON.stringify(signature.data)} saved={signature.data} />}
    </section>
  );
}

function SignatureForm({ saved }: { saved: Signature }) {
  const toast = useToast();
  const save = useSaveSignature();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<SignatureInput, unknown, Signature>({
    resolver: zodResolver(signatureSchema) as Resolver<SignatureInput, unknown, Signature>,
    defaultValues: toForm(saved),
  });
  useUnsavedChanges(isDirty);

  const submit = async (values: Signature) => {
    try {
      await save.mutateAsync(values);
      toast({ title: 'Signature Saved', description: 'Your replies sign with it from now on.' });
    } catch (err) {
      toast({ variant: 'destructive', title: 'Error', description: errorMessage(err, 'Failed to save the signature.') });
    }
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate className="mt-5">
      <fieldset disabled={isSubmitting} className="flex flex-col gap-4">
        <Field label="Name" autoComplete="name" maxLength={100} error={errors.name?.message} {...register('name')} />
        <Field label="Title" autoComplete="organization-title" maxLength={100} error={errors.title?.message} {...register('title')} />
        <Field label="Phone" type="tel" autoComplete="tel" maxLength={50} error={errors.phone?.message} {...register('phone')} />
        <button type="submit" className="btn-primary self-start">
          {isSubmitting ? 'Saving...' : 'Save Signature'}
        </button>
      </fieldset>
    </form>
  );
}
