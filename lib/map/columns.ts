import type { ColumnSpec, ColumnType, RelationMap } from '../relation-map.ts'

/**
 * The database column behind a column the map declares under the client's name: its `column` when it is
 * aliased (`artistId: { type: 'integer', column: 'ArtistId' }` → `ArtistId`), else the name itself.
 *
 * @example
 * databaseColumn(map, 'albums', 'artistId')  // 'ArtistId'
 */
export function databaseColumn(map: RelationMap, table: string, clientName: string): string {
  const columns = map[table]?.columns
  const spec = columns !== undefined && Object.hasOwn(columns, clientName) ? columns[clientName] : undefined
  return typeof spec === 'object' && spec.column !== undefined ? spec.column : clientName
}

const clientNamesByMap = new WeakMap<RelationMap, Map<string, ReadonlyMap<string, string>>>()

/**
 * The client's name for a database column of `table` (the inverse of {@link databaseColumn}): the key in
 * `columns` whose database column it is, or `undefined` when the map does not declare it (a key column
 * that is not allow-listed). Memoised per map object and table.
 *
 * @example
 * clientColumn(map, 'albums', 'ArtistId')  // 'artistId'
 */
export function clientColumn(map: RelationMap, table: string, column: string): string | undefined {
  let tables = clientNamesByMap.get(map)
  if (tables === undefined) clientNamesByMap.set(map, (tables = new Map()))
  let names = tables.get(table)
  if (names === undefined) {
    const inverse = new Map<string, string>()
    for (const name of Object.keys(map[table]?.columns ?? {})) inverse.set(databaseColumn(map, table, name), name)
    tables.set(table, (names = inverse))
  }
  return names.get(column)
}

/**
 * A column name in snake_case and in camelCase, the two spellings a client may send whatever naming the
 * map uses: `createdAt` and `created_at` both give `['created_at', 'createdAt']`, as do `CreatedAt` and
 * (for a PascalCase schema's `ArtistId`) `['artist_id', 'artistId']`.
 *
 * @example
 * columnSpellings('stripeCustomerId')  // ['stripe_customer_id', 'stripeCustomerId']
 */
export function columnSpellings(name: string): readonly [snake: string, camel: string] {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
  return [snake, snake.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())]
}

const spellingsByMap = new WeakMap<RelationMap, Map<string, ReadonlyMap<string, string>>>()

/**
 * The declared column of `table` that `name` spells in snake_case or camelCase, whichever naming the map
 * uses (see {@link columnSpellings}), or `undefined`. The map check makes the answer unique. A database
 * column declared under another client name (`column: …`) is only reached through that name's spellings.
 * Memoised per map object and table.
 *
 * @example
 * columnBySpelling(map, 'orders', 'created_at')  // 'createdAt' when the map declares createdAt
 */
export function columnBySpelling(map: RelationMap, table: string, name: string): string | undefined {
  let tables = spellingsByMap.get(map)
  if (tables === undefined) spellingsByMap.set(map, (tables = new Map()))
  let names = tables.get(table)
  if (names === undefined) tables.set(table, (names = spellingsOf(Object.keys(map[table]?.columns ?? {}))))
  return names.get(name)
}

/**
 * Each column name and its spellings, with the column they name. The first column to claim a name keeps
 * it; `onClash(name, other)` is told of each later column whose name or spelling another already has.
 */
export function spellingsOf(
  names: readonly string[],
  onClash?: (name: string, other: string) => void,
): Map<string, string> {
  const spellings = new Map<string, string>()
  for (const name of names) {
    for (const spelling of new Set([name, ...columnSpellings(name)])) {
      const other = spellings.get(spelling)
      if (other === undefined) spellings.set(spelling, name)
      else if (other !== name) onClash?.(name, other)
    }
  }
  return spellings
}

/**
 * The database columns of a table's primary key, in key order: one for a single-column key (default `id`),
 * several for a composite key declared as `primaryKey: ['playlist_id', 'track_id']`.
 *
 * @example
 * primaryKeyColumns(map, 'playlist_tracks')  // ['playlist_id', 'track_id']
 */
export function primaryKeyColumns(map: RelationMap, table: string): readonly string[] {
  const key = map[table]?.primaryKey ?? 'id'
  return typeof key === 'string' ? [key] : key
}

/** The declared type of a column, whichever form it was declared in (`'datetime'` or `{ type: 'datetime', … }`). */
export function columnType(spec: ColumnSpec): ColumnType {
  return typeof spec === 'string' ? spec : spec.type
}

/**
 * Whether a client may order by a column (and name it in `distinct`): not when it is declared `sortable: false`,
 * nor when it is `json` (its values have no order the databases share).
 */
export function columnSortable(spec: ColumnSpec): boolean {
  return typeof spec === 'string' ? spec !== 'json' : spec.type !== 'json' && spec.sortable !== false
}

/**
 * Whether a client may filter on a column: not when it is declared `filterable: false`, nor when it is `json`
 * (no operator compares a JSON value the same way on every database).
 */
export function columnFilterable(spec: ColumnSpec): boolean {
  return typeof spec === 'string' ? spec !== 'json' : spec.type !== 'json' && spec.filterable !== false
}
