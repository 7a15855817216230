import { useCallback, useEffect, useId, type ReactNode } from 'react';
import { Controller, get, useFieldArray, useForm, type FieldErrors, type Resolver, type UseFormReturn } from 'react-hook-form';
import { Button } from '#components/ui/button.tsx';
import { Input } from '#components/ui/input.tsx';
import { Select, type SelectOption } from '#components/ui/select.tsx';
import { Switch } from '#components/ui/switch.tsx';
import { Textarea } from '#components/ui/textarea.tsx';
import { COMPLIANCE_STATUSES, COMPLIANCE_STATUS_LABELS, type ComplianceStatus } from '#shared/compliance.ts';
import { companyProfileSchema, type CompanyFormValues } from '#shared/schemas/company-profile.ts';
import type { CompanyProfile } from '../../api/company-profile';
import { FieldNotes, FormActions } from '../../components/schema-form';
import { FIGURES, type FigureKey } from './company-fields';
import { NaicsRowTools } from './naics-picker';
import { useConfirmDiscard, useUnsavedChanges } from '../../components/unsaved-changes';

/** The form's shape: texts as strings (empty = not set), plain-text lists as rows of `{ value }`. */
interface CompanyForm {
  legalName: string;
  shortName: string;
  showNameWithLogo: boolean;
  tagline: string;
  description: string;
  uei: string;
  cageCode: string;
  setAside: string;
  samActive: boolean;
  samExpiresOn: string;
  certifications: { name: string; identifier: string; expiresOn: string }[];
  procurementTypes: { value: string }[];
  naicsCodes: { code: string; title: string; partnerSupply: string }[];
  procurementEmail: string;
  complianceStatements: { text: string; status: ComplianceStatus }[];
  contractVehicles: { name: string; number: string }[];
  pscCodes: { value: string }[];
  contactPersonEmail: string;
  contactPersonPhone: string;
  figures: Record<FigureKey, string>;
  figuresConfirmed: boolean;
}

const TEXT_LISTS = ['procurementTypes', 'pscCodes'] as const;

function toForm(p: CompanyProfile): CompanyForm {
  return {
    legalName: p.legalName,
    shortName: p.shortName,
    showNameWithLogo: p.showNameWithLogo,
    tagline: p.tagline ?? '',
    description: p.description ?? '',
    uei: p.uei ?? '',
    cageCode: p.cageCode ?? '',
    setAside: p.setAside ?? '',
    samActive: p.samActive,
    samExpiresOn: p.samExpiresOn ?? '',
    certifications: p.certifications.map((c) => ({ name: c.name, identifier: c.identifier ?? '', expiresOn: c.expiresOn ?? '' })),
    procurementTypes: p.procurementTypes.map((value) => ({ value })),
    naicsCodes: p.naicsCodes.map((n) => ({ code: n.code, title: n.title, partnerSupply: n.partnerSupply ?? '' })),
    procurementEmail: p.procurementEmail ?? '',
    complianceStatements: p.complianceStatements.map((c) => ({ text: c.text, status: c.status })),
    contractVehicles: p.contractVehicles.map((v) => ({ name: v.name, number: v.number ?? '' })),
    pscCodes: p.pscCodes.map((value) => ({ value })),
    contactPersonEmail: p.contactPersonEmail ?? '',
    contactPersonPhone: p.contactPersonPhone ?? '',
    figures: Object.fromEntries(FIGURES.map(({ key }) => [key, p.figures[key] ?? ''])) as Record<FigureKey, string>,
    figuresConfirmed: p.figuresConfirmed,
  };
}

const toPayload = (v: CompanyForm) => ({
  ...v,
  procurementTypes: v.procurementTypes.map((r) => r.value),
  pscCodes: v.pscCodes.map((r) => r.value),
});

/** Validates with the same schema as PATCH /api/admin/company-profile; a message lands under its field. */
const resolver: Resolver<CompanyForm, unknown, CompanyFormValues> = (values) => {
  const parsed = companyProfileSchema.safeParse(toPayload(values));
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: Record<string, unknown> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String);
    if ((TEXT_LISTS as readonly string[]).includes(path[0]!) && path.length === 2) path.push('value');
    let node = errors;
    path.forEach((key, i) => {
      if (i === path.length - 1) node[key] ??= { type: issue.code, message: issue.message };
      else node = (node[key] ??= {}) as Record<string, unknown>;
    });
  }
  return { values: {}, errors: errors as FieldErrors<CompanyForm> };
};

interface CompanyProfileFormProps {
  record: CompanyProfile;
  /** The field to focus when the form opens (from the setup checklist). */
  focusField?: string;
  onSubmit: (values: CompanyFormValues) => Promise<unknown>;
  onCancel: () => void;
}

const STATUS_OPTIONS = COMPLIANCE_STATUSES.map((value) => ({ value, label: COMPLIANCE_STATUS_LABELS[value] }));

/** Where a request for a list field (from the launch checklist) puts the focus: its first row, or the figures' switch. */
const LIST_FOCUS: Record<string, string> = {
  procurementTypes: 'procurementTypes.0.value',
  naicsCodes: 'naicsCodes.0.code',
  complianceStatements: 'complianceStatements.0.text',
  figures: 'figuresConfirmed',
};

/** Every field of the company profile, grouped as the owner thinks of them. */
export function CompanyProfileForm({ record, onSubmit, onCancel, focusField }: CompanyProfileFormProps) {
  const form = useForm<CompanyForm, unknown, CompanyFormValues>({
    resolver,
    defaultValues: toForm(record),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { handleSubmit, formState } = form;
  useEffect(() => {
    if (focusField) form.setFocus((LIST_FOCUS[focusField] ?? focusField) as never);
  }, [form, focusField]);
  useUnsavedChanges(formState.isDirty);
  const confirmDiscard = useConfirmDiscard(formState.isDirty);
  const submit = handleSubmit(async (values) => {
    await onSubmit(values).catch(() => undefined);
  });

  return (
    <form noValidate onSubmit={submit} aria-label="Edit company profile">
      <fieldset disabled={formState.isSubmitting} className="min-w-0 space-y-6">
        <Group title="Names and description">
          <TextField
            form={form}
            name="legalName"
            label="Legal name"
            help="Your full registered business name, as on SAM.gov. Shown in the footer and the privacy policy."
          />
          <TextField
            form={form}
            name="shortName"
            label="Short name"
            help="The name visitors see in the page header, footer, page titles and e-mails."
          />
          <SwitchField
            form={form}
            name="showNameWithLogo"
            label="Show the name beside the logo"
            help="Once a logo is uploaded (Home Page tab, Header), the page header shows the logo alone, with this name as its spoken name. Turn on to show the name beside it too. Without a logo the name is always shown."
          />
          <TextField form={form} name="tagline" label="Tagline (optional)" help="One line under your name in the footer." />
          <TextField
            form={form}
            name="description"
            label="Description (optional)"
            multiline
            help="A few sentences about the business, used by search engines."
          />
        </Group>

        <Group title="Registrations">
          <TextField
            form={form}
            name="uei"
            label="UEI (optional)"
            help="Your 12-character Unique Entity ID from SAM.gov. Shown on the federal capabilities page, in the footer and in search results."
          />
          <TextField
            form={form}
            name="cageCode"
            label="CAGE code (optional)"
            help="Your 5-character CAGE code from SAM.gov. Shown beside the UEI."
          />
          <TextField
            form={form}
            name="setAside"
            label="Set-aside eligibility (optional)"
            help="For example: WOSB / Small Business. Shown on the home page and the federal capabilities page."
          />
          <SwitchField
            form={form}
            name="samActive"
            label="SAM registration is active"
            help="Turn on once your SAM.gov registration is active; the federal page then says so."
          />
          <TextField
            form={form}
            name="samExpiresOn"
            type="date"
            label="SAM renewal date (optional)"
            help="The date your SAM.gov registration must be renewed by. You are reminded 60 days before."
          />
          <RowList
            form={form}
            name="certifications"
            title="Certifications"
            help="Each certification is listed on the federal capabilities page. You are reminded 60 days before one expires."
            addLabel="Add certification"
            empty={{ name: '', identifier: '', expiresOn: '' }}
            rowName={(i) => `Certification ${i + 1}`}
            fields={[
              { key: 'name', label: 'Name', help: 'For example: WOSB certification (SBA)' },
              { key: 'identifier', label: 'Number (optional)' },
              { key: 'expiresOn', label: 'Expiry date (optional)', type: 'date' },
            ]}
          />
        </Group>

        <Group title="What you sell">
          <RowList
            form={form}
            name="procurementTypes"
            title="Procurement types"
            help="The ways agencies can buy from you, such as 'FAR Part 13 simplified acquisitions'. Shown on the federal capabilities page."
            addLabel="Add procurement type"
            empty={{ value: '' }}
            rowName={(i) => `Procurement type ${i + 1}`}
            fields={[{ key: 'value', label: 'Procurement type' }]}
          />
          <RowList
            form={form}
            name="naicsCodes"
            title="NAICS codes"
            help="The industry codes you are registered under. Shown on the federal capabilities, partners and about pages."
            addLabel="Add NAICS code"
            empty={{ code: '', title: '', partnerSupply: '' }}
            rowName={(i) => `NAICS code ${i + 1}`}
            fields={[
              { key: 'code', label: 'Code', help: '6 digits, for example 423430', inputMode: 'numeric' },
              { key: 'title', label: 'Official title' },
              { key: 'partnerSupply', label: 'What partners supply (optional)', help: 'Shown on the partners page.' },
            ]}
            rowExtra={(index) => <NaicsRow form={form} index={index} />}
          />
          <RowList
            form={form}
            name="pscCodes"
            title="PSC codes (optional)"
            help="Product Service Codes, such as 7030 or R408. Listed beside the NAICS codes on the capability statement."
            addLabel="Add PSC code"
            empty={{ value: '' }}
            rowName={(i) => `PSC code ${i + 1}`}
            fields={[{ key: 'value', label: 'PSC code' }]}
          />
          <RowList
            form={form}
            name="contractVehicles"
            title="Contract vehicles (optional)"
            help="Contracts agencies can order through, such as a GSA Multiple Award Schedule or a BPA. Listed on the capability statement."
            addLabel="Add contract vehicle"
            empty={{ name: '', number: '' }}
            rowName={(i) => `Contract vehicle ${i + 1}`}
            fields={[
              { key: 'name', label: 'Name', help: 'For example: GSA MAS' },
              { key: 'number', label: 'Contract number (optional)', help: 'For example: 47QSWA24D0001' },
            ]}
          />
        </Group>

        <Group title="Contact">
          <TextField
            form={form}
            name="procurementEmail"
            type="email"
            label="Procurement e-mail (optional)"
            help="Where contracting officers send requests for quotes. Shown on the federal capabilities page; without it, the contact e-mail is used."
          />
          <TextField
            form={form}
            name="contactPersonEmail"
            type="email"
            label="Point of contact’s direct e-mail (optional)"
            help="The capability statement names the founder (About tab) as the person to call, with this e-mail; without it, the procurement or contact e-mail."
          />
          <TextField
            form={form}
            name="contactPersonPhone"
            type="tel"
            label="Point of contact’s direct phone (optional)"
            help="Shown with the founder’s name on the capability statement; without it, the business phone."
          />
        </Group>

        <Group title="Compliance statements">
          <RowList
            form={form}
            name="complianceStatements"
            title="Statements"
            help="Requirements such as 'TAA and BAA compliant sourcing', each with its status, listed on the federal capabilities page. Only Yes shows a check mark; a statement marked No is not shown."
            addLabel="Add statement"
            empty={{ text: '', status: 'yes' }}
            rowName={(i) => `Statement ${i + 1}`}
            fields={[
              { key: 'text', label: 'Statement' },
              { key: 'status', label: 'Status', options: STATUS_OPTIONS },
            ]}
          />
        </Group>

        <Group title="Marketing figures">
          <p className="text-sm text-muted">
            Each figure is optional: one left empty is left out of the page. The home page shows them only once you confirm them here;
            saving a changed figure confirms them too.
          </p>
          <SwitchField
            form={form}
            name="figuresConfirmed"
            label="These figures are true: show them on the home page"
            help="A new site starts with sample figures, hidden until you confirm or change them."
          />
          <div className="grid gap-4 sm:grid-cols-2">
            {FIGURES.map((f) => (
              <TextField key={f.key} form={form} name={`figures.${f.key}`} label={f.label} help={`Where it appears: ${f.where}.`} />
            ))}
          </div>
        </Group>
      </fieldset>
      <FormActions
        submitting={formState.isSubmitting}
        submitLabel="Save Changes"
        onCancel={() => void confirmDiscard().then((discard) => discard && onCancel())}
      />
    </form>
  );
}

type Form = UseFormReturn<CompanyForm, unknown, CompanyFormValues>;

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 space-y-4 rounded-md border border-line p-4">
      <legend className="px-1 text-base font-semibold text-ink">{title}</legend>
      {children}
    </fieldset>
  );
}

const errorOf = (form: Form, name: string): string | undefined =>
  (get(form.formState.errors, name) as { message?: string } | undefined)?.message;

/** A labelled input with its help text and the schema's message, both read by screen readers. */
function TextField(props: {
  form: Form;
  name: string;
  label: string;
  help?: string;
  type?: 'text' | 'email' | 'date' | 'tel';
  multiline?: boolean;
  inputMode?: 'numeric';
  /** Read after the label by screen readers only: which row of a list the field belongs to. */
  labelSuffix?: string;
  /** A choice among these (a native select) instead of a text. */
  options?: readonly SelectOption[];
}) {
  const { form, name, label, help, type = 'text', multiline, inputMode, labelSuffix, options } = props;
  const id = useId();
  const error = errorOf(form, name);
  const describedBy = [error && `${id}-error`, help && `${id}-help`].filter(Boolean).join(' ') || undefined;
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, ...form.register(name as never) };
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-ink">
        {label}
        {labelSuffix && <span className="sr-only"> ({labelSuffix})</span>}
      </label>
      {options ? (
        <Select options={options} {...common} />
      ) : multiline ? (
        <Textarea rows={4} {...common} />
      ) : (
        <Input type={type} inputMode={inputMode} {...common} />
      )}
      <FieldNotes id={id} help={help} error={error} />
    </div>
  );
}

function SwitchField(props: { form: Form; name: 'samActive' | 'figuresConfirmed' | 'showNameWithLogo'; label: string; help: string }) {
  const { form, name, label, help } = props;
  const id = useId();
  return (
    <div>
      <div className="flex items-center gap-3">
        <Controller
          control={form.control}
          name={name}
          render={({ field }) => (
            <Switch id={id} aria-describedby={`${id}-help`} checked={Boolean(field.value)} onCheckedChange={field.onChange} />
          )}
        />
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
      </div>
      <p id={`${id}-help`} className="mt-1 text-xs text-muted">
        {help}
      </p>
    </div>
  );
}

/** A NAICS row's official-list button and notes, following what is typed in its code and title. */
function NaicsRow({ form, index }: { form: Form; index: number }) {
  const code = form.watch(`naicsCodes.${index}.code`);
  const title = form.watch(`naicsCodes.${index}.title`);
  // One function per row (the tools' effect that fills an empty title depends on it).
  const onChoose = useCallback(
    (c: string, t: string) => {
      const options = { shouldDirty: true, shouldValidate: form.formState.isSubmitted };
      form.setValue(`naicsCodes.${index}.code`, c, options);
      form.setValue(`naicsCodes.${index}.title`, t, options);
    },
    [form, index],
  );
  return <NaicsRowTools rowLabel={`NAICS code ${index + 1}`} code={code} title={title} onChoose={onChoose} />;
}

type ListName = 'certifications' | 'procurementTypes' | 'naicsCodes' | 'complianceStatements' | 'contractVehicles' | 'pscCodes';

/** A list of rows with add and remove; each row's inputs are named after the row. */
function RowList(props: {
  form: Form;
  name: ListName;
  title: string;
  help: string;
  addLabel: string;
  empty: Record<string, string>;
  rowName: (index: number) => string;
  fields: {
    key: string;
    label: string;
    help?: string;
    type?: 'text' | 'date';
    inputMode?: 'numeric';
    /** A choice among these instead of a text. */
    options?: readonly SelectOption[];
  }[];
  /** More under each row (the NAICS rows' official list). */
  rowExtra?: (index: number) => ReactNode;
}) {
  const { form, name, title, help, addLabel, empty, rowName, fields, rowExtra } = props;
  const id = useId();
  const list = useFieldArray({ control: form.control, name: name as 'certifications' });
  const listError = errorOf(form, name) ?? errorOf(form, `${name}.root`);
  const single = fields.length === 1;
  return (
    <div className="min-w-0" role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-help`}>
      <p id={`${id}-title`} className="text-sm font-semibold text-ink">
        {title}
      </p>
      <p id={`${id}-help`} className="mt-1 text-xs text-muted">
        {help}
      </p>
      {list.fields.length === 0 && <p className="mt-2 text-sm text-muted">None yet.</p>}
      <ol className="mt-2 space-y-3">
        {list.fields.map((row, index) => (
          <li key={row.id} className={single ? 'flex items-start gap-2 rounded-md bg-surface p-3' : 'rounded-md bg-surface p-3'}>
            <div
              className={
                single ? 'min-w-0 flex-1' : fields.length === 2 ? 'grid gap-3 sm:grid-cols-[1fr_11rem]' : 'grid gap-3 sm:grid-cols-3'
              }
            >
              {fields.map((f) => (
                <TextField
                  key={f.key}
                  form={form}
                  name={`${name}.${index}.${f.key}`}
                  label={f.label}
                  labelSuffix={single ? String(index + 1) : rowName(index).toLowerCase()}
                  help={f.help}
                  type={f.type}
                  inputMode={f.inputMode}
                  options={f.options}
                />
              ))}
            </div>
            {rowExtra?.(index)}
            <Button
              size="sm"
              variant="ghost"
              // Beside a single input, level with it (below its label); under a row of several.
              className={single ? 'mt-7' : 'mt-2'}
              onClick={() => list.remove(index)}
              aria-label={`Remove ${rowName(index).toLowerCase()}`}
            >
              Remove
            </Button>
          </li>
        ))}
      </ol>
      {listError && <p className="mt-1 text-sm text-danger">{listError}</p>}
      <Button size="sm" variant="secondary" className="mt-3" onClick={() => list.append(empty as never)}>
        {addLabel}
      </Button>
    </div>
  );
}
