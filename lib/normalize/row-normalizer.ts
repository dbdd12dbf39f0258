import type { DriverReading } from '../dialect/driver-reading.ts'
import type { Row } from './row-values.ts'
import type { ColumnSpec, ColumnType, RelationMap } from '../relation-map.ts'
import { columnType } from '../map/columns.ts'
import { convertersFor, type Convert } from './convert-value.ts'
import { isPadded, toUnpadded } from './unpadded-text.ts'

/** Rewrites, in place, the values of the known columns of rows of one table into their JSON values. */
export type NormalizeRows = (rows: readonly Row[]) => void

/**
 * The `typeof` of a value that is already the JSON value of a type, where one tells (`date`, `datetime` and `decimal`
 * text may still need rewriting).
 */
const FINAL: Readonly<Record<ColumnType, string | undefined>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  bigint: 'string',
  date: undefined,
  datetime: undefined,
  decimal: undefined,
  json: undefined,
}

const compiled = new WeakMap<RelationMap, Map<string, WeakMap<DriverReading, NormalizeRows>>>()

/**
 * The normalizer of rows of `table` as the library selects them (keyed by client names): one pass over the
 * allow-listed columns, planned once per map, table and driver reading. `computed` declares the type of keys
 * the query adds beyond the map (an aggregate such as `posts_count: 'integer'`); such a normalizer is built
 * for the call. A key a row does not carry (not selected) and NULL are left as they are, and so is every
 * property the map does not name.
 *
 * @example
 * rowNormalizer(map, 'users', driverReadingOf(db.client))(rows) // rows[0].created_at: '2024-03-01T12:00:00.000Z'
 */
export function rowNormalizer(
  map: RelationMap,
  table: string,
  reading: DriverReading,
  computed?: Readonly<Record<string, ColumnType>>,
): NormalizeRows {
  if (computed !== undefined) return compile(columnTypes(map, table, computed), reading)
  let byTable = compiled.get(map)
  if (byTable === undefined) compiled.set(map, (byTable = new Map()))
  let byReading = byTable.get(table)
  if (byReading === undefined) byTable.set(table, (byReading = new WeakMap()))
  let normalize = byReading.get(reading)
  if (normalize === undefined) byReading.set(reading, (normalize = compile(columnTypes(map, table), reading)))
  return normalize
}

/**
 * A column's name and how it is normalized: its type's converter, `padded` for a `CHAR(n)` one, `epoch_s` for a
 * date-time stored as epoch seconds.
 */
type Typed = readonly [string, ColumnType | 'padded' | 'epoch_s']

const kindOf = (spec: ColumnSpec): Typed[1] =>
  isPadded(spec) ? 'padded' : typeof spec === 'object' && spec.storage === 'epoch_s' ? 'epoch_s' : columnType(spec)

function columnTypes(map: RelationMap, table: string, computed: Readonly<Record<string, ColumnType>> = {}): Typed[] {
  const typed = ([name, spec]: [string, ColumnSpec]): Typed => [name, kindOf(spec)]
  const declared = Object.entries(map[table]?.columns ?? {}).map(typed)
  return [...declared.filter(([name]) => !Object.hasOwn(computed, name)), ...Object.entries(computed)]
}

/** Epoch seconds (SQLite numbers) as their ISO 8601 instant; any other value as `datetime` reads it. */
const epochSeconds =
  (datetime: Convert): Convert =>
  (value) =>
    typeof value === 'number' || typeof value === 'bigint' ? datetime(Number(value) * 1000) : datetime(value)

function compile(columns: readonly Typed[], reading: DriverReading): NormalizeRows {
  const converters = convertersFor(reading)
  const converts = columns.map(([, type]) =>
    type === 'padded' ? toUnpadded : type === 'epoch_s' ? epochSeconds(converters.datetime) : converters[type],
  )
  return unrolled(columns, converts) ?? looped(columns, converts)
}

/**
 * The loop written out for these columns, one statement per column with the key as a literal: each read is then
 * a load of a known property of rows of one shape, where a loop over the keys makes every read a lookup by a
 * varying key (measured: the loop alone cost 7–8% over the driver's rows on a 1,000-row page, figure 11). The
 * code is built from the column names as JSON string literals and the converters passed in, nothing else.
 * `undefined` where the runtime does not compile code (a Content Security Policy, some edge runtimes).
 */
function unrolled(columns: readonly Typed[], converts: readonly Convert[]): NormalizeRows | undefined {
  let body = ''
  columns.forEach(([name, type], index) => {
    const key = JSON.stringify(name)
    const final = type === 'padded' || type === 'epoch_s' ? undefined : FINAL[type]
    const skip = final === undefined ? '' : ` && typeof value !== '${final}'`
    body +=
      `value = row[${key}]; if (value !== null && value !== undefined${skip}) { json = ` +
      `convert[${index}](value); if (json !== value) row[${key}] = json }\n`
  })
  try {
    const build = new Function(
      'convert',
      `return function normalizeRows(rows) {\nfor (let r = 0; r < rows.length; r++) {\nconst row = rows[r]; let ` +
        `value, json\n${body}}\n}`,
    ) as (convert: readonly Convert[]) => NormalizeRows
    return build(converts)
  } catch {
    return undefined
  }
}

function looped(columns: readonly Typed[], converts: readonly Convert[]): NormalizeRows {
  const keys = columns.map(([name]) => name)
  const finals = columns.map(([, type]) => (type === 'padded' || type === 'epoch_s' ? undefined : FINAL[type]))
  const count = keys.length
  return (rows) => {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as Row
      for (let i = 0; i < count; i++) {
        const key = keys[i] as string
        const value = row[key]
        if (value === null || value === undefined || typeof value === finals[i]) continue
        const json = (converts[i] as Convert)(value)
        if (json !== value) row[key] = json
      }
    }
  }
}
