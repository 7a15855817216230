import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '#components/ui/button.tsx';
import { Select } from '#components/ui/select.tsx';
import { businessTimeZoneSchema, knownTimeZones, type BusinessTimeZone } from '#shared/schemas/business-time-zone.ts';
import { timeZoneQuery, useSaveTimeZone } from '../../api/time-zone';

/** The business's time zone, beside the export whose dates it sets. */
export function TimeZoneForm() {
  const id = useId();
  const current = useQuery(timeZoneQuery);
  const save = useSaveTimeZone();
  const options = useMemo(() => knownTimeZones().map((tz) => ({ value: tz, label: tz.replace(/_/g, ' ') })), []);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<BusinessTimeZone>({ resolver: zodResolver(businessTimeZoneSchema), defaultValues: { timeZone: '' } });
  useEffect(() => {
    if (current.data) reset(current.data);
  }, [current.data, reset]);

  return (
    <form
      onSubmit={handleSubmit(async (values) => {
        await save.mutateAsync(values).catch(() => undefined);
      })}
      noValidate
      aria-label="Business time zone"
      className="mt-6 border-t border-line pt-4"
    >
      <fieldset disabled={isSubmitting || !current.data} className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`${id}-tz`} className="mb-1 block text-sm font-medium">
            Business time zone
          </label>
          <Select
            id={`${id}-tz`}
            options={current.data ? options : [{ value: '', label: 'Loading…' }]}
            aria-describedby={`${id}-help${errors.timeZone ? ` ${id}-error` : ''}`}
            aria-invalid={errors.timeZone ? true : undefined}
            {...register('timeZone')}
          />
        </div>
        <Button type="submit" variant="secondary" disabled={!isDirty}>
          {isSubmitting ? 'Saving...' : 'Save time zone'}
        </Button>
      </fieldset>
      <p id={`${id}-help`} className="mt-2 text-sm text-muted">
        Exported CSV files give dates and times in this time zone, with the received time also in UTC for other software.
      </p>
      {errors.timeZone && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-danger">
          {errors.timeZone.message}
        </p>
      )}
    </form>
  );
}
