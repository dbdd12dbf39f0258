import type { IntrospectionNotice } from './introspection-notice.ts'
import type { SchemaTable } from '../dialect/schema/schema-snapshot.ts'

/** A notice for each table of the map whose partitions or `INHERITS` children were folded into it. */
export function foldedPartitions(tables: readonly SchemaTable[]): IntrospectionNotice[] {
  return tables
    .filter((table) => table.partitions !== undefined && table.partitions.length > 0)
    .map((table) => ({
      kind: 'partition',
      table: table.name,
      message:
        `${table.name}: its partitions or INHERITS children (${(table.partitions ?? []).join(', ')})` +
        ' are folded into it, not resources of their own',
    }))
}
