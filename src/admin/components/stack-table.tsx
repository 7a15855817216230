import type { ReactNode } from 'react';
import { cn } from '#components/ui/cn.ts';

/**
 * A list table that becomes stacked cards below 48rem, or inside a `@container/wide-table` box
 * narrower than 60rem (the `stack-table` rules in admin.css): give each cell after the first a
 * `data-label` with its column's name, shown above it on a card.
 */
export function StackTable({ columns, className, children }: { columns: readonly string[]; className?: string; children: ReactNode }) {
  return (
    <table className={cn('stack-table w-full text-left text-sm', className)}>
      <thead className="border-b border-line text-muted">
        <tr>
          {columns.map((h) => (
            <th key={h} scope="col" className="py-2 pr-3">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
