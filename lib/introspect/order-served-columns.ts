import type { SchemaTable } from './schema-snapshot.ts'

/**
 * The columns of `table` an index serves as an order: the first column of each of its indexes and of its
 * primary key. An order on any other column sorts every matching row before a page can be cut.
 *
 * @example
 * orderServedColumns({ ...posts, primaryKey: ['id'], indexes: [['user_id', 'created_at']] }) // Set { 'id', 'user_id' }
 */
export function orderServedColumns(table: SchemaTable): Set<string> {
  const served = new Set<string>()
  for (const columns of [table.primaryKey, ...(table.indexes ?? [])]) if (columns[0] !== undefined) served.add(columns[0])
  return served
}
