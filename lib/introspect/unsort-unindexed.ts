import type { ColumnSpec } from '../relation-map.ts'
import type { IntrospectionNotice } from './introspection-notice.ts'
import { orderServedColumns } from './order-served-columns.ts'
import type { SchemaTable } from './schema-snapshot.ts'

/**
 * Declares `sortable: false` on each column of `columns` (client name → spec; `clientNames` maps database
 * columns to client names) that no index of `table` serves as an order, and reports them in one notice.
 */
export function unsortUnindexed(table: SchemaTable, columns: Record<string, ColumnSpec>, clientNames: ReadonlyMap<string, string>, notices: IntrospectionNotice[]): void {
  const served = orderServedColumns(table)
  const unsorted: string[] = []
  for (const { name: column } of table.columns) {
    const clientName = clientNames.get(column)
    const spec = clientName === undefined ? undefined : columns[clientName]
    if (clientName === undefined || spec === undefined || served.has(column)) continue
    columns[clientName] = typeof spec === 'string' ? { type: spec, sortable: false } : { ...spec, sortable: false }
    unsorted.push(column)
  }
  if (unsorted.length === 0) return
  const message = `${table.name}: sortable: false on ${unsorted.join(', ')}, since no index starts with ${unsorted.length === 1 ? 'it' : 'them'} (sortableIndexedOnly)`
  notices.push({ kind: 'unindexed-sort', table: table.name, message })
}
