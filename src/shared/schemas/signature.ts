import { z } from 'zod';
import { optionalPlainText } from './fields';

/**
 * An administrator's own signature for replies (Account tab; GET/PUT /api/user/signature): name,
 * title and phone. Empty fields are cleared; without a name, replies sign with the company.
 */
export const signatureSchema = z
  .object({
    name: optionalPlainText(100),
    title: optionalPlainText(100),
    phone: optionalPlainText(50),
  })
  .refine((v) => v.name !== null || (v.title === null && v.phone === null), {
    message: 'Name is required for a signature with a title or phone',
    path: ['name'],
  });
export type SignatureInput = z.input<typeof signatureSchema>;
export type Signature = z.output<typeof signatureSchema>;
