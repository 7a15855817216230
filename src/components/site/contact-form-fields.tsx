import type { ChangeEvent, ReactNode } from 'react';
import { BUYER_TYPE_LABELS, BUYER_TYPES, CONTACT_RULES, type ContactField } from '#shared/contact-rules.ts';

/** The contact form's fields, as the visitor typed them. */
export type Values = Required<{ [K in ContactField]: string }>;
/** Each invalid field's message. */
export type Errors = Partial<Record<ContactField, string>>;
type OnChange = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => void;

/** What every field is given: its value, its change handler and, while invalid, its message. */
interface FieldsProps {
  values: Values;
  errors: Errors;
  onChange: OnChange;
}

const PERSON_FIELDS: { name: ContactField; label: string; type?: string; autoComplete: string; required?: boolean }[] = [
  { name: 'name', label: 'Full Name', autoComplete: 'name', required: true },
  { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email', required: true },
  { name: 'company', label: 'Company (Optional)', autoComplete: 'organization' },
  { name: 'phone', label: 'Phone Number (Optional)', type: 'tel', autoComplete: 'tel' },
];

function fieldProps(name: ContactField, { values, errors, onChange }: FieldsProps) {
  return {
    id: `contact-${name}`,
    name,
    value: values[name],
    onChange,
    // A choice or a date has no length to limit (and no maxlength attribute).
    maxLength: CONTACT_RULES[name].options || CONTACT_RULES[name].outOfRange ? undefined : CONTACT_RULES[name].max,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `contact-${name}-error` : undefined,
    className: 'field-input',
  };
}

function FieldError({ name, errors }: { name: ContactField; errors: Errors }) {
  return errors[name] ? (
    <p id={`contact-${name}-error`} className="field-error">
      {errors[name]}
    </p>
  ) : null;
}

/** A field with its label above and its message below. */
function Labelled({
  name,
  label,
  errors,
  className,
  children,
}: {
  name: ContactField;
  label: string;
  errors: Errors;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={`contact-${name}`} className="field-label">
        {label}
      </label>
      {children}
      <FieldError name={name} errors={errors} />
    </div>
  );
}

/** Who writes: name, e-mail, company, phone. */
export function PersonFields(props: FieldsProps) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      {PERSON_FIELDS.map((f) => (
        <Labelled key={f.name} name={f.name} label={f.label} errors={props.errors}>
          <input
            {...fieldProps(f.name, props)}
            type={f.type ?? 'text'}
            autoComplete={f.autoComplete}
            aria-required={f.required || undefined}
          />
        </Labelled>
      ))}
    </div>
  );
}

export function MessageField(props: FieldsProps) {
  return (
    <div>
      <label htmlFor="contact-message" className="field-label">
        Message
      </label>
      <textarea
        {...fieldProps('message', props)}
        rows={5}
        aria-required
        aria-describedby={props.errors.message ? 'contact-message-error contact-message-help' : 'contact-message-help'}
      />
      <p id="contact-message-help" className="mt-1.5 text-sm text-muted">
        For urgent requirements, add your solicitation or RFQ number and due date below.
      </p>
      <FieldError name="message" errors={props.errors} />
    </div>
  );
}

/** The three optional buyer fields; the RFQ number gets a row of its own (its label is long). */
export function BuyerFields(props: FieldsProps) {
  const { errors } = props;
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Labelled name="buyerType" label="I am… (Optional)" errors={errors}>
        <select {...fieldProps('buyerType', props)} className="field-select">
          <option value="">Choose one</option>
          {BUYER_TYPES.map((t) => (
            <option key={t} value={t}>
              {BUYER_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </Labelled>
      <Labelled name="responseDue" label="Response Due Date (Optional)" errors={errors}>
        <input {...fieldProps('responseDue', props)} type="date" />
      </Labelled>
      <Labelled name="solicitation" label="Solicitation or RFQ Number (Optional)" errors={errors} className="sm:col-span-2">
        <input {...fieldProps('solicitation', props)} autoComplete="off" />
      </Labelled>
    </div>
  );
}
