import type { DbBool } from './Database';

/** The one place booleans cross the database boundary (stored as integer 0/1 on both engines). */
export function toDbBool(value: boolean): DbBool {
  return value ? 1 : 0;
}

export function fromDbBool(value: DbBool): boolean {
  return Number(value) === 1;
}
