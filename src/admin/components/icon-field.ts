import { SERVICE_ICONS, SERVICE_ICON_LABELS } from '#shared/constants.ts';
import type { FieldSpec } from './schema-form';

/**
 * The icon select of services and home feature cards: the SPEC 3 service icon options, stored by
 * name (e.g. `shield`). A stored name outside the list stays selectable so an edit keeps it.
 */
export function iconField(current?: string | null): FieldSpec {
  const known = (SERVICE_ICONS as readonly string[]).includes(current ?? '');
  return {
    name: 'icon',
    label: 'Icon',
    kind: 'select',
    options: [
      { value: '', label: 'Choose an icon' },
      ...SERVICE_ICONS.map((i) => ({ value: i, label: SERVICE_ICON_LABELS[i] })),
      ...(current && !known ? [{ value: current, label: `${current} (not in the list)` }] : []),
    ],
  };
}
