import type { TableDefinition } from '../relation-map.ts'

/** A table's `search` declaration: the columns the `search` parameter looks in, and how. */
export interface SearchDeclaration {
  columns: readonly string[]
  mode: 'contains' | 'fulltext'
}

/**
 * The `search` declaration of a table definition, read structurally: maps of this version have none, a map
 * that declares `search: { columns, mode }` gets the `search` parameter in its document.
 */
export function searchOf(definition: TableDefinition): SearchDeclaration | undefined {
  const search = 'search' in definition ? definition.search : undefined
  if (typeof search !== 'object' || search === null) return undefined
  const { columns, mode } = search as { readonly columns?: unknown; readonly mode?: unknown }
  if (!Array.isArray(columns) || !columns.every((column) => typeof column === 'string')) return undefined
  return { columns: columns as string[], mode: mode === 'fulltext' ? 'fulltext' : 'contains' }
}
