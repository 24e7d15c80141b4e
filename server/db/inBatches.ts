/**
 * Bound parameters per statement are limited: SQLite refuses more than 32,766 ('too many SQL
 * variables'), PostgreSQL's wire protocol more than 65,535. An `in (...)` list of ids that grows
 * with the data (every blob of a vault, every notified member of a push) is therefore bound in
 * slices of this many, well under both and small enough that each statement stays quick.
 */
export const IN_LIST_MAX = 500;

/** `items` in consecutive slices of at most `size` (none for an empty list). */
export function inBatches<T>(items: readonly T[], size: number = IN_LIST_MAX): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}
