import type { RelationDefinition, RelationKey, RelationMap, TableDefinition } from '../relation-map.ts'
import { tableColumns } from './column-specs.ts'
import { compareText } from './compare-text.ts'
import { pivotOf, type Pivot } from './find-pivots.ts'
import { foldedPartitions } from './folded-partitions.ts'
import type { IntrospectionNotice } from './introspection-notice.ts'
import { foreignKeyStem, inflectedWords, pickName, qualifiedWords } from './relation-names.ts'
import { DEFAULT_SECRET_COLUMNS, type Naming, type RelationMapFromSchemaOptions } from './options.ts'
import type { SchemaForeignKey, SchemaSnapshot, SchemaTable } from '../dialect/schema/schema-snapshot.ts'
import { tableKey } from './table-key.ts'
import { selectTables } from './select-tables.ts'
import { columnPatterns } from './column-patterns.ts'
import { unsortUnindexed } from './sort-indexes.ts'
import { searchDeclaration } from './search-declaration.ts'

/** A generated relation map and what it leaves out or decided on its own. */
export interface GeneratedRelationMap {
  map: RelationMap
  /** In table order, then in the order the builder met them; the same for the same snapshot and options. */
  notices: IntrospectionNotice[]
}

/** A relation waiting for its name: the names it would like, best first. */
interface PendingRelation {
  owner: string
  candidates: string[][]
  definition: RelationDefinition
  /** Why the first candidate was skipped on purpose, if it was. */
  ambiguous?: string
}

/** One foreign key between two mapped tables: its first column pair, and every pair of a composite key. */
interface Link {
  from: SchemaTable
  key: SchemaForeignKey
  column: string
  referencedColumn: string
  columns: readonly string[]
  referencedColumns: readonly string[]
}

/**
 * Builds a relation map from a schema snapshot (see `readSchema`), without touching a database: the same
 * snapshot and options always give the same map and notices.
 *
 * - Columns: every column a map type holds, except those whose names look secret; `nullable: false`,
 *   `unique: true` and `column` (the database name, where the client name differs) as the schema says.
 * - `primaryKey` when the key is not `id` (an array when composite); a table without a key uses a unique
 *   NOT NULL constraint or is left out.
 * - A `belongsTo` per foreign key (named after its first column without `_id`, else after the referenced table
 *   in the singular; `required` when its columns are NOT NULL and the key enforced), and its inverse on the
 *   referenced table: `hasMany` named after the referencing table, `hasOne` when the column is unique. A foreign
 *   key over several columns (one into a table partitioned by a date spans the date) gives composite keys:
 *   `foreignKey: ['rental_id', 'rental_date']`, its other side left out when it is the referenced primary key. A pivot table (keyed by its two foreign keys) gives a `belongsToMany` on each side instead, and
 *   is itself left out unless `options.exposePivots`, or unless it has columns other than date-times (a
 *   `weight`): then it is also a table, with its two `belongsTo` and their inverses, so they stay reachable.
 * - With `options.sortableIndexedOnly`, `sortable: false` on each column that leads no index nor the primary key.
 * - A `search` from the table's full-text or pg_trgm indexes (see `searchDeclaration`).
 * - Names that clash with a column or another relation take the next candidate (`posts_by_editor_id`), then a
 *   number; every choice the developer should review is in `notices`.
 *
 * @throws {Error} when `options.tables` or `options.exclude` name a table the snapshot does not have.
 * @example
 * const { map, notices } = relationMapFromSchema(await readSchema(db), { naming: 'camel' })
 */
export function relationMapFromSchema(
  snapshot: SchemaSnapshot,
  options: RelationMapFromSchemaOptions = {},
): GeneratedRelationMap {
  const naming: Naming = options.naming ?? 'as-is'
  const notices: IntrospectionNotice[] = []
  const keys = new Map<string, readonly string[]>()
  for (const table of selectTables(snapshot, options, notices)) {
    const key = tableKey(table, notices)
    if (key !== undefined) keys.set(table.name, key)
  }
  const tables = snapshot.tables.filter((table) => keys.has(table.name))
  notices.push(...foldedPartitions(tables))
  const pivots = new Map<string, Pivot>()
  for (const table of tables) {
    const pivot = pivotOf(table, (name) => keys.has(name) && name !== table.name)
    if (pivot !== undefined) pivots.set(table.name, pivot)
  }
  const hidden = (table: string): boolean => options.exposePivots !== true && pivots.get(table)?.data.length === 0
  const exposed = tables.filter((table) => !hidden(table.name))
  if (options.exposePivots !== true) {
    for (const {
      table,
      keys: [first, second],
      data,
    } of pivots.values()) {
      const linking = `a pivot table linking ${first.referencedTable} and ${second.referencedTable} (belongsToMany)`
      const message =
        data.length === 0
          ? `${table.name}: not exposed, ${linking}; set exposePivots to expose it`
          : `${table.name}: ${linking}, kept as a table of its own too for its columns ${data.join(', ')}`
      notices.push({ kind: 'pivot-table', table: table.name, message })
    }
  }
  const inMap = new Set(exposed.map((table) => table.name))

  const excluded = columnPatterns(options.excludeColumns ?? [])
  const map: RelationMap = {}
  const taken = new Map<string, Set<string>>()
  for (const table of exposed) {
    const key = keys.get(table.name) ?? []
    const { columns, clientNames } = tableColumns(
      table,
      key,
      naming,
      options.secretColumns ?? DEFAULT_SECRET_COLUMNS,
      notices,
      excluded,
      options.exactNumbers ?? true,
    )
    if (options.sortableIndexedOnly === true) unsortUnindexed(table, columns, clientNames, notices)
    const primaryKey =
      key.length === 1 && key[0] === 'id' ? {} : { primaryKey: key.length === 1 ? (key[0] ?? '') : [...key] }
    const definition: TableDefinition = { ...primaryKey, columns }
    const search = searchDeclaration(table, key, columns, clientNames, notices)
    if (search !== undefined) definition.search = search
    map[table.name] = definition
    taken.set(table.name, new Set(Object.keys(columns)))
  }

  const links = foreignKeyLinks(snapshot, inMap, pivots, notices)
  const pending: PendingRelation[] = [
    ...belongsToRelations(links, keys, notices),
    ...inverseRelations(links, keys, new Set(options.noInverse), notices),
    ...pivotRelations(pivots, inMap, keys),
  ]
  for (const table of exposed) {
    const names = taken.get(table.name) ?? new Set<string>()
    for (const relation of pending.filter((candidate) => candidate.owner === table.name)) {
      const { name, preferred } = pickName(relation.candidates, names, naming)
      if (relation.ambiguous !== undefined) {
        notices.push({
          kind: 'relation-name-clash',
          table: table.name,
          message: `${table.name}: relation '${name}' ${relation.ambiguous}`,
        })
      } else if (name !== preferred) {
        notices.push({
          kind: 'relation-name-clash',
          table: table.name,
          message: `${table.name}: relation '${name}' renamed, since '${preferred}' names a column or another relation`,
        })
      }
      const definition = map[table.name]
      if (definition !== undefined) definition.relations = { ...definition.relations, [name]: relation.definition }
    }
  }
  return { map, notices: sortNotices(notices, snapshot) }
}

function foreignKeyLinks(
  snapshot: SchemaSnapshot,
  inMap: ReadonlySet<string>,
  pivots: ReadonlyMap<string, Pivot>,
  notices: IntrospectionNotice[],
): Link[] {
  const links: Link[] = []
  for (const table of snapshot.tables) {
    if (!inMap.has(table.name)) continue
    const sorted = [...table.foreignKeys].sort(
      (left, right) =>
        compareText(left.columns.join(), right.columns.join()) ||
        compareText(left.referencedTable, right.referencedTable),
    )
    for (const key of sorted) {
      const at = `${table.name}.${key.columns.join(', ')}`
      if (!inMap.has(key.referencedTable)) {
        const why = pivots.has(key.referencedTable) ? 'a pivot table' : 'not in the map'
        notices.push({
          kind: 'foreign-key-outside-map',
          table: table.name,
          message: `${at}: no relation, it references ${key.referencedTable}, ${why}`,
        })
        continue
      }
      links.push({
        from: table,
        key,
        column: key.columns[0] ?? '',
        referencedColumn: key.referencedColumns[0] ?? '',
        columns: key.columns,
        referencedColumns: key.referencedColumns,
      })
    }
  }
  return links
}

/**
 * A link's key on one side as a map names it: its column, or the columns of a composite key; `undefined` when it is
 * the table's key (in order), which a relation key defaults to.
 */
function keyOption(
  keys: ReadonlyMap<string, readonly string[]>,
  table: string,
  columns: readonly string[],
): RelationKey | undefined {
  if (columns.length === 1) return soleKey(keys, table) === columns[0] ? undefined : columns[0]
  const key = keys.get(table) ?? []
  return key.length === columns.length && key.every((column, index) => columns[index] === column)
    ? undefined
    : [...columns]
}

/** A link's referencing columns as a relation's `foreignKey`: a column, or a composite key's columns. */
const foreignKeyOf = (link: Link): RelationKey => (link.columns.length === 1 ? link.column : [...link.columns])

const soleKey = (keys: ReadonlyMap<string, readonly string[]>, table: string): string | undefined => {
  const key = keys.get(table)
  return key?.length === 1 ? key[0] : undefined
}

function belongsToRelations(
  links: readonly Link[],
  keys: ReadonlyMap<string, readonly string[]>,
  notices: IntrospectionNotice[],
): PendingRelation[] {
  return links.map((link) => {
    const { from, key, column } = link
    const singular = inflectedWords(key.referencedTable, 'singular')
    const stem = foreignKeyStem(column)
    const definition: RelationDefinition = {
      type: 'belongsTo',
      table: key.referencedTable,
      foreignKey: foreignKeyOf(link),
    }
    const ownerKey = keyOption(keys, key.referencedTable, link.referencedColumns)
    if (ownerKey !== undefined) definition.ownerKey = ownerKey
    // A composite key references nothing while any of its columns is NULL.
    const nullable = link.columns.some(
      (name) => from.columns.find((candidate) => candidate.name === name)?.nullable ?? true,
    )
    if (!nullable && key.enforced) definition.required = true
    if (!nullable && !key.enforced) {
      const message =
        `${from.name}.${link.columns.join(', ')}: NOT NULL, but the database does not enforce its foreign key to ` +
        `${key.referencedTable}: the belongsTo is not required`
      notices.push({ kind: 'unenforced-foreign-key', table: from.name, column, message })
    }
    // A self-reference whose key only repeats the table (`category_id` on categories) is its `parent`.
    const first =
      from.name === key.referencedTable && namesTheTable(stem, singular) ? selfWords('parent', singular) : stem
    return {
      owner: from.name,
      candidates: [...(first === undefined ? [] : [first]), singular, qualifiedWords(singular, 'by', column)],
      definition,
    }
  })
}

function inverseRelations(
  links: readonly Link[],
  keys: ReadonlyMap<string, readonly string[]>,
  noInverse: ReadonlySet<string>,
  notices: IntrospectionNotice[],
): PendingRelation[] {
  const ordered = [...links].sort(
    (left, right) => compareText(left.from.name, right.from.name) || compareText(left.column, right.column),
  )
  const skipped = ordered.filter((link) => noInverse.has(link.key.referencedTable))
  for (const table of noInverse) {
    const onto = skipped.filter((link) => link.key.referencedTable === table)
    if (onto.length === 0) continue
    const from = onto.map((link) => `${link.from.name}.${link.column}`).join(', ')
    notices.push({
      kind: 'skipped-inverse',
      table,
      message: `${table}: no inverse relations (hasMany/hasOne) from ${from}, as noInverse asks`,
    })
  }
  return ordered
    .filter((link) => !noInverse.has(link.key.referencedTable))
    .map((link) => {
      const { from, key, column } = link
      // Unique when the table's key or a unique constraint lies within the foreign key's columns.
      const within = (columns: readonly string[]): boolean =>
        columns.length > 0 && columns.every((name) => link.columns.includes(name))
      const unique = within(keys.get(from.name) ?? []) || from.uniques.some(within)
      const words = inflectedWords(from.name, unique ? 'singular' : 'plural')
      const definition: RelationDefinition = {
        type: unique ? 'hasOne' : 'hasMany',
        table: from.name,
        foreignKey: foreignKeyOf(link),
      }
      const localKey = keyOption(keys, key.referencedTable, link.referencedColumns)
      if (localKey !== undefined) definition.localKey = localKey
      const qualified = qualifiedWords(words, 'by', column)
      const siblings = links.filter(
        (link) => link.from.name === from.name && link.key.referencedTable === key.referencedTable,
      ).length
      if (siblings > 1)
        return {
          owner: key.referencedTable,
          candidates: [qualified],
          definition,
          ambiguous:
            `named by its key, since ${siblings} foreign keys of ${from.name} reference ` + `${key.referencedTable}`,
        }
      if (from.name === key.referencedTable)
        return {
          owner: key.referencedTable,
          candidates: [selfWords(unique ? 'child' : 'children', words), words, qualified],
          definition,
        }
      return { owner: key.referencedTable, candidates: [words, qualified], definition }
    })
}

function pivotRelations(
  pivots: ReadonlyMap<string, Pivot>,
  inMap: ReadonlySet<string>,
  keys: ReadonlyMap<string, readonly string[]>,
): PendingRelation[] {
  const relations: PendingRelation[] = []
  for (const {
    table,
    keys: [first, second],
  } of pivots.values()) {
    for (const [parent, related] of [
      [first, second],
      [second, first],
    ] as const) {
      if (!inMap.has(parent.referencedTable) || !inMap.has(related.referencedTable)) continue
      const definition: RelationDefinition = {
        type: 'belongsToMany',
        table: related.referencedTable,
        pivotTable: table.name,
        foreignPivotKey: parent.columns[0] ?? '',
        relatedPivotKey: related.columns[0] ?? '',
      }
      const parentKey = parent.referencedColumns[0] ?? ''
      const relatedKey = related.referencedColumns[0] ?? ''
      if (soleKey(keys, parent.referencedTable) !== parentKey) definition.parentKey = parentKey
      if (soleKey(keys, related.referencedTable) !== relatedKey) definition.relatedKey = relatedKey
      const words = inflectedWords(related.referencedTable, 'plural')
      const candidates = [
        words,
        qualifiedWords(words, 'via', table.name),
        qualifiedWords(words, 'by', definition.relatedPivotKey),
      ]
      relations.push({ owner: parent.referencedTable, candidates, definition })
    }
  }
  return relations
}

/**
 * Whether a foreign key's stem only repeats its table's name (`category_id` on `categories`): no name for a
 * self-reference.
 */
function namesTheTable(stem: readonly string[] | undefined, singular: readonly string[]): boolean {
  return (
    stem === undefined ||
    stem.map((word) => word.toLowerCase()).join('_') === singular.map((word) => word.toLowerCase()).join('_')
  )
}

/**
 * `parent`/`children`/`child` for a self-reference, capitalised when the table's words are (`Parent` on `Employee`).
 */
function selfWords(word: string, tableWords: readonly string[]): string[] {
  return [/^[A-Z]/.test(tableWords[0] ?? '') ? `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}` : word]
}

function sortNotices(notices: readonly IntrospectionNotice[], snapshot: SchemaSnapshot): IntrospectionNotice[] {
  const order = new Map(snapshot.tables.map((table, index) => [table.name, index]))
  return notices
    .map((notice, index) => ({ notice, index }))
    .sort(
      (left, right) =>
        (order.get(left.notice.table) ?? -1) - (order.get(right.notice.table) ?? -1) || left.index - right.index,
    )
    .map(({ notice }) => notice)
}
