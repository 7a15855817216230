import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps, version } from './columns';
import { documentCategory } from './enums';

export const documents = pgTable(
  'document',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description'),
    category: documentCategory('category').notNull().default('capability'),
    isActive: boolean('is_active').notNull().default(true),
    displayOrder: integer('display_order').notNull().default(0),
    filePath: text('file_path').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }),
    fileType: text('file_type'),
    ...version,
    ...timestamps,
  },
  (t) => [check('document_display_order_nonneg', sql`${t.displayOrder} >= 0`)],
);
export type Document = typeof documents.$inferSelect;
