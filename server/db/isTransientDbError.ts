/**
 * True for a database failure that says nothing about the statement: the database was busy,
 * unreachable or restarting, or picked this transaction to lose a deadlock or a serialization
 * conflict. Trying the same work again later may succeed. (better-sqlite3 or pg; pg reports
 * SQLSTATE codes, Node's socket errors their errno names.)
 */
export function isTransientDbError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (TRANSIENT_CODES.has(code)) return true;
  // SQLSTATE class 08: connection exceptions.
  if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  // pg's own errors when its socket goes away mid-query carry no code.
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}

const TRANSIENT_CODES = new Set([
  // PostgreSQL: serialization failure, deadlock, too many connections, shutdown, cannot connect now.
  '40001',
  '40P01',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  // SQLite: another connection holds the lock.
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_LOCKED',
  // The socket to the database.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
]);
