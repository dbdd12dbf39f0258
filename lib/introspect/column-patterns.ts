import { nameWords } from './name-words.ts'

/** Which pattern of a list a table's column matches, if any. */
export type ColumnPatterns = (table: string, column: string) => string | undefined

const regexOf = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  )
const snake = (name: string): string =>
  nameWords(name)
    .map((word) => word.toLowerCase())
    .join('_')

/**
 * Matches columns against `patterns`, each a column name (`deleted_at`) or `table.column`
 * (`users.stripe_customer_id`), where `*` stands for any text (`*_secret`, `*.tenant_id`). A pattern
 * matches case-insensitively, the database name or its snake_case (`DeletedAt` matches `deleted_at`).
 *
 * @example
 * columnPatterns(['deleted_at', '*_secret'])('users', 'api_secret')  // '*_secret'
 */
export function columnPatterns(patterns: readonly string[]): ColumnPatterns {
  const compiled = patterns.map((pattern) => {
    const dot = pattern.indexOf('.')
    return {
      pattern,
      table: dot < 0 ? undefined : regexOf(pattern.slice(0, dot)),
      column: regexOf(dot < 0 ? pattern : pattern.slice(dot + 1)),
    }
  })
  return (table, column) => {
    const names = [column, snake(column)]
    const tables = [table, snake(table)]
    return compiled.find(
      (entry) =>
        names.some((name) => entry.column.test(name)) &&
        (entry.table === undefined || tables.some((name) => entry.table?.test(name) === true)),
    )?.pattern
  }
}
