/** The codes drivers give a violated constraint: SQLite, PostgreSQL (class 23) and MySQL/MariaDB. */
const SQLITE = /^SQLITE_CONSTRAINT/
const POSTGRES = /^23\d{3}$/
const MYSQL: ReadonlySet<string> = new Set([
  'ER_DUP_ENTRY',
  'ER_NO_REFERENCED_ROW',
  'ER_NO_REFERENCED_ROW_2',
  'ER_ROW_IS_REFERENCED',
  'ER_ROW_IS_REFERENCED_2',
  'ER_BAD_NULL_ERROR',
  'ER_NO_DEFAULT_FOR_FIELD',
])

/**
 * Whether a database error is a violated constraint (unique, foreign key, not null): a conflict with
 * the stored data the client can resolve, answered with 409 rather than 500.
 *
 * @example
 * try { await db('posts').where('id', 1).delete() } catch (error) { if (isConstraintViolation(error)) … }
 */
export function isConstraintViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false
  const code = String(error.code)
  return SQLITE.test(code) || POSTGRES.test(code) || MYSQL.has(code)
}
