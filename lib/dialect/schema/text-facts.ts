import type { SchemaColumn } from './schema-snapshot.ts'

const PADDED = /^(national )?(character|char|nchar|bpchar)$/

/** `column` with its enum `values` (when `values` lists any) and `padded: true` for a fixed-length `CHAR(n)` type. */
export function textFacts(dataType: string, values: readonly string[] | null, column: SchemaColumn): SchemaColumn {
  const facts: SchemaColumn = { ...column }
  if (values !== null && values.length > 0) facts.values = [...values]
  if (PADDED.test(dataType)) facts.padded = true
  return facts
}

/** The values of a MySQL `COLUMN_TYPE` such as `enum('G','PG-13','it''s')`, in declaration order. */
export function mysqlEnumValues(columnType: string): string[] {
  const list = /^enum\((.*)\)$/is.exec(columnType.trim())?.[1] ?? ''
  const quoted = [...list.matchAll(/'((?:[^'\\]|''|\\.)*)'/g)]
  return quoted.map((match) => (match[1] ?? '').replace(/''/g, "'").replace(/\\(.)/g, '$1'))
}

/**
 * The values of each `CHECK (column IN ('a', 'b'))` of a SQLite `CREATE TABLE` statement, by column: SQLite has no
 * enum type, and a schema ported from one declares it so.
 */
export function sqliteCheckedValues(createTable: string): Map<string, string[]> {
  const found = new Map<string, string[]>()
  const pattern = /check\s*\(\s*["`[]?(\w+)["`\]]?\s+in\s*\(((?:\s*'(?:[^']|'')*'\s*,?)+)\)\s*\)/gi
  for (const match of createTable.matchAll(pattern)) {
    const quoted = [...(match[2] ?? '').matchAll(/'((?:[^']|'')*)'/g)]
    const values = quoted.map((value) => (value[1] ?? '').replace(/''/g, "'"))
    if (match[1] !== undefined && values.length > 0) found.set(match[1], values)
  }
  return found
}
