import { z } from 'zod';

/**
 * The Documents tab's switch "Use generated statement": whether the site offers the capability
 * statement the publisher writes from the site's own data, or the uploaded one (SPEC 2.9's active
 * capability document). `PUT /api/admin/capability-statement` takes exactly this.
 */
export const capabilityStatementSettingSchema = z.strictObject({
  useGenerated: z.boolean({ error: 'Use generated statement must be true or false' }),
});
export type CapabilityStatementSetting = z.output<typeof capabilityStatementSettingSchema>;
