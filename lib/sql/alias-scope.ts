/** The table names and aliases visible at one nesting level of correlated subqueries. */
export type AliasScope = ReadonlySet<string>

/** A name for `table` inside a subquery: the table's own name, or `table_2`, `table_3`… if that is taken. */
export function aliasFor(table: string, scope: AliasScope): string {
  if (!scope.has(table)) return table
  let n = 2
  while (scope.has(`${table}_${n}`)) n++
  return `${table}_${n}`
}

/** `table` or `table as alias`, as knex reads it. */
export function fromClause(table: string, alias: string): string {
  return alias === table ? table : `${table} as ${alias}`
}
