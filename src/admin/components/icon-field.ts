import { PRODUCT_ICONS, PRODUCT_ICON_LABELS, SERVICE_ICONS } from '#shared/constants.ts';
import type { FieldSpec } from './schema-form';

/**
 * The icon select of services and home feature cards: the SPEC 3 service icon options, stored by
 * name (e.g. `shield`); the federal page's product cards also offer three icons of goods. A stored
 * name outside the list stays selectable so an edit keeps it.
 */
export function iconField(current?: string | null, products = false): FieldSpec {
  const icons: readonly (typeof PRODUCT_ICONS)[number][] = products ? PRODUCT_ICONS : SERVICE_ICONS;
  const known = (icons as readonly string[]).includes(current ?? '');
  return {
    name: 'icon',
    label: 'Icon',
    kind: 'select',
    options: [
      { value: '', label: 'Choose an icon' },
      ...icons.map((i) => ({ value: i, label: PRODUCT_ICON_LABELS[i] })),
      ...(current && !known ? [{ value: current, label: `${current} (not in the list)` }] : []),
    ],
  };
}
