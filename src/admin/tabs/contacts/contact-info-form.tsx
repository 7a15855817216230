import { useEffect, useRef } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { contactInfoSchema } from '#shared/schemas/contact-info.ts';
import type { ContactInfo, useSaveContactInfo } from '../../api/contact-info';
import type { ContactField } from '../../components/contact-field-request';
import { saveFormProps } from '../../components/row-actions';
import { SchemaForm, type FieldSpec } from '../../components/schema-form';

const FIELDS: FieldSpec[] = [
  { name: 'email', label: 'Email' },
  { name: 'phone', label: 'Phone' },
  { name: 'address', label: 'Address', kind: 'textarea', rows: 3, help: 'One line per line of the address.' },
  { name: 'businessHours', label: 'Business hours', kind: 'textarea', rows: 3, help: 'One line per line shown.' },
  { name: 'isActive', label: 'Active: shown on the website', kind: 'switch' },
  { name: 'displayEmail', label: 'Show the email', kind: 'switch' },
  { name: 'displayPhone', label: 'Show the phone', kind: 'switch' },
  { name: 'displayAddress', label: 'Show the address', kind: 'switch' },
  { name: 'displayBusinessHours', label: 'Show the business hours', kind: 'switch' },
];

/** Adding or editing a business contact record (loaded on demand by contact-info-editor.tsx). */
export function ContactInfoForm({
  current,
  save,
  onDone,
  focusField,
  onFocused,
}: {
  current: ContactInfo | undefined;
  save: ReturnType<typeof useSaveContactInfo>;
  onDone: () => void;
  /** A field to focus (asked for by a checklist or banner link), then `onFocused`. */
  focusField?: ContactField | null;
  onFocused?: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focusField) return;
    box.current?.querySelector<HTMLElement>(`[name="${focusField}"]`)?.focus();
    onFocused?.();
  }, [focusField, onFocused]);
  return (
    <div ref={box}>
      <SchemaForm
        key={current ? `${current.id}-${current.version}` : 'new'}
        schema={contactInfoSchema as unknown as z.ZodType<FieldValues, FieldValues>}
        fields={FIELDS}
        defaultValues={{
          email: current?.email ?? '',
          phone: current?.phone ?? '',
          address: current?.address ?? '',
          businessHours: current?.businessHours ?? '',
          isActive: current?.isActive ?? true,
          displayEmail: current?.displayEmail ?? true,
          displayPhone: current?.displayPhone ?? true,
          displayAddress: current?.displayAddress ?? true,
          displayBusinessHours: current?.displayBusinessHours ?? true,
        }}
        {...saveFormProps(current, save, onDone)}
      />
    </div>
  );
}
