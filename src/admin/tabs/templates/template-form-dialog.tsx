import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { Select } from '#components/ui/select.tsx';
import { Switch } from '#components/ui/switch.tsx';
import { Textarea } from '#components/ui/textarea.tsx';
import { FONT_STACKS, TEMPLATE_TYPES } from '#shared/constants.ts';
import { renderSample } from '#shared/email/render.ts';
import { DEFAULT_TEMPLATE } from '#shared/fallbacks.ts';
import { STARTING_COMPANY } from '#shared/company.ts';
import { FONT_LABELS, emailTemplateSchema, type EmailTemplateInput, type EmailTemplateValues } from '#shared/schemas/email-template.ts';
import { useSaveTemplate, useSendTestEmail, type EmailTemplate } from '../../api/email-templates';
import { replySetupQuery } from '../../api/saved-replies';
import { SimpleImagePicker } from '../../components/image-picker';
import { MailPreview } from '../../components/mail-preview';
import { FormDialog, useConfirmDiscard, useUnsavedChanges } from '../../components/unsaved-changes';
import { TYPE_LABELS } from './template-types';

const COLORS = [
  ['headerBgColor', 'Header background'],
  ['headerTextColor', 'Header text'],
  ['contentBgColor', 'Content background'],
  ['contentTextColor', 'Content text'],
  ['accentColor', 'Accent'],
] as const;

/** Form values: every field as the inputs hold it (text), logo empty for none. */
function toForm(t: EmailTemplate | undefined): EmailTemplateInput {
  const origin = typeof window === 'undefined' ? DEFAULT_TEMPLATE.signatureWebsite : window.location.origin;
  return {
    templateType: t?.templateType ?? 'contact_response',
    name: t?.name ?? '',
    headerBgColor: t?.headerBgColor ?? DEFAULT_TEMPLATE.headerBgColor,
    headerTextColor: t?.headerTextColor ?? DEFAULT_TEMPLATE.headerTextColor,
    contentBgColor: t?.contentBgColor ?? DEFAULT_TEMPLATE.contentBgColor,
    contentTextColor: t?.contentTextColor ?? DEFAULT_TEMPLATE.contentTextColor,
    accentColor: t?.accentColor ?? DEFAULT_TEMPLATE.accentColor,
    fontFamily: (t?.fontFamily ?? DEFAULT_TEMPLATE.fontFamily) as EmailTemplateInput['fontFamily'],
    companyLogo: t?.companyLogo ?? '',
    footerText: t?.footerText ?? DEFAULT_TEMPLATE.footerText,
    signatureName: t?.signatureName ?? DEFAULT_TEMPLATE.signatureName,
    signatureEmail: t?.signatureEmail ?? DEFAULT_TEMPLATE.signatureEmail,
    signatureWebsite: t?.signatureWebsite ?? origin,
    isActive: t?.isActive ?? false,
  };
}

/** The template dialog: every template field with a new template's defaults, a live preview, and 'Send test e-mail'. */
export function TemplateFormDialog({ template, onClose }: { template: EmailTemplate | 'new' | null; onClose: () => void }) {
  const current = template === 'new' ? undefined : (template ?? undefined);
  return (
    <FormDialog
      open={template !== null}
      onClose={onClose}
      title={current ? 'Edit Email Template' : 'New Email Template'}
      className="sm:w-[min(72rem,calc(100vw-2rem))]"
    >
      {template !== null && <TemplateForm key={current ? `${current.id}-${current.version}` : 'new'} current={current} onClose={onClose} />}
    </FormDialog>
  );
}

function TemplateForm({ current, onClose }: { current: EmailTemplate | undefined; onClose: () => void }) {
  const prefix = useId();
  const save = useSaveTemplate();
  const test = useSendTestEmail();
  const form = useForm<EmailTemplateInput, unknown, EmailTemplateValues>({
    resolver: zodResolver(emailTemplateSchema) as Resolver<EmailTemplateInput, unknown, EmailTemplateValues>,
    defaultValues: toForm(current),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, control, formState, handleSubmit } = form;
  useUnsavedChanges(formState.isDirty);
  const confirmDiscard = useConfirmDiscard(formState.isDirty);
  const values = useWatch({ control }) as EmailTemplateInput;
  // The server's business name, signature and site address ('Send test e-mail' uses the same).
  const setup = useQuery(replySetupQuery);
  // The preview shows exactly what would be sent; an unfinished colour shows the default until valid.
  const preview = useMemo(() => {
    const parsed = emailTemplateSchema.safeParse(values);
    const look = parsed.success ? parsed.data : { ...DEFAULT_TEMPLATE, ...values, companyLogo: values.companyLogo || null };
    const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
    const context = setup.data?.context ?? {
      siteName: STARTING_COMPANY.legalName,
      siteUrl: origin,
      sender: { name: STARTING_COMPANY.legalName, email: null, phone: null, website: origin },
    };
    return renderSample(
      look as EmailTemplateValues,
      (values.templateType ?? 'contact_response') as EmailTemplateValues['templateType'],
      context,
    );
  }, [values, setup.data]);

  const field = (name: keyof EmailTemplateInput) => {
    const id = `${prefix}-${name}`;
    const error = formState.errors[name]?.message as string | undefined;
    return { id, error, props: { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined } };
  };
  const errorText = (f: ReturnType<typeof field>) =>
    f.error ? (
      <p id={`${f.id}-error`} className="mt-1 text-sm text-danger">
        {f.error}
      </p>
    ) : null;
  const text = (name: keyof EmailTemplateInput, label: string, opts: { type?: string } = {}) => {
    const f = field(name);
    return (
      <div>
        <label htmlFor={f.id} className="mb-1 block text-sm font-medium text-ink">
          {label}
        </label>
        <Input {...f.props} type={opts.type ?? 'text'} {...register(name)} />
        {errorText(f)}
      </div>
    );
  };

  const submit = handleSubmit(async (data) => {
    await save.mutateAsync({ id: current?.id, version: current?.version, values: data }).then(onClose, () => undefined);
  });
  const sendTest = handleSubmit((data) => test.mutate(data));

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <form noValidate onSubmit={submit}>
        <fieldset disabled={formState.isSubmitting} className="space-y-4">
          {text('name', 'Template name')}
          <div>
            <label htmlFor={field('templateType').id} className="mb-1 block text-sm font-medium text-ink">
              Template type
            </label>
            <Select
              {...field('templateType').props}
              options={TEMPLATE_TYPES.map((v) => ({ value: v, label: TYPE_LABELS[v] }))}
              {...register('templateType')}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {COLORS.map(([name, label]) => {
              const f = field(name);
              const value = values[name] ?? '';
              return (
                <div key={name}>
                  <label htmlFor={f.id} className="mb-1 block text-sm font-medium text-ink">
                    {label} colour
                  </label>
                  <div className="flex items-center gap-2">
                    <span
                      aria-hidden="true"
                      className="h-9 w-9 shrink-0 rounded border border-slate-400"
                      style={{ background: /^#[0-9a-f]{6}$/i.test(value) ? value : 'transparent' }}
                    />
                    <Input {...f.props} maxLength={7} spellCheck={false} {...register(name)} />
                  </div>
                  {errorText(f)}
                </div>
              );
            })}
          </div>
          <div>
            <label htmlFor={field('fontFamily').id} className="mb-1 block text-sm font-medium text-ink">
              Font
            </label>
            <Select
              {...field('fontFamily').props}
              options={FONT_STACKS.map((v) => ({ value: v, label: FONT_LABELS[v] }))}
              {...register('fontFamily')}
            />
            {errorText(field('fontFamily'))}
          </div>
          <Controller
            control={control}
            name="companyLogo"
            render={({ field: f }) => (
              <SimpleImagePicker
                label="Company logo (optional)"
                description="Shown at the top of the e-mail; its alt text is the company name."
                url={f.value ?? ''}
                onUrlChange={f.onChange}
                error={field('companyLogo').error}
              />
            )}
          />
          <div>
            <label htmlFor={field('footerText').id} className="mb-1 block text-sm font-medium text-ink">
              Footer text
            </label>
            <Textarea {...field('footerText').props} rows={3} {...register('footerText')} />
            {errorText(field('footerText'))}
          </div>
          {text('signatureName', 'Signature name')}
          {text('signatureEmail', 'Signature email', { type: 'email' })}
          {text('signatureWebsite', 'Signature website', { type: 'url' })}
          <p className="text-sm text-muted">
            Replies to visitors are not signed with these fields: they sign with the sending administrator&rsquo;s own signature (name,
            title and phone; Account tab), then the company&rsquo;s legal name (Company tab) and its real e-mail, phone and website
            (Contacts tab). The preview and the test e-mail sign with yours.
          </p>
          <div className="flex items-center gap-3">
            <Controller
              control={control}
              name="isActive"
              render={({ field: f }) => <Switch id={`${prefix}-isActive`} checked={Boolean(f.value)} onCheckedChange={f.onChange} />}
            />
            <label htmlFor={`${prefix}-isActive`} className="text-sm font-medium">
              Make this the active template for this type
            </label>
          </div>
          <div className="flex flex-wrap gap-2 pt-2">
            <Button type="submit">{formState.isSubmitting ? 'Saving…' : current ? 'Save Changes' : 'Create Template'}</Button>
            <Button variant="secondary" onClick={() => void sendTest()} disabled={test.isPending}>
              {test.isPending ? 'Sending…' : 'Send test e-mail'}
            </Button>
            <Button variant="ghost" onClick={() => void confirmDiscard().then((discard) => discard && onClose())}>
              Cancel
            </Button>
          </div>
        </fieldset>
      </form>
      <MailPreview mail={preview} />
    </div>
  );
}
