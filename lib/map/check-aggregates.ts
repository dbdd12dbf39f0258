import type { ColumnSpec, RelationMap } from '../relation-map.ts'
import { columnType } from './columns.ts'
import { columnSpellings } from './columns.ts'
import { describeValue, isObject, didYouMean, relationMapError } from './relation-map-error.ts'

const FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max']
const KEYS = ['relation', 'fn', 'column', 'scope']
const NUMERIC = new Set(['integer', 'number'])

/**
 * Checks the `aggregates` of every table of a map whose tables, columns and relations are already checked:
 * each names a relation of its table (not `morphTo`), a known `fn`, a column of the related table where `fn`
 * needs one (a numeric one for `sum` and `avg`; `min` and `max` not over a boolean), a scope of the related
 * table when it names one, and a name that no relation or column of the table already uses.
 *
 * @throws {Error} naming the path, e.g. `users.aggregates.postsViewsAvg.column: …`
 */
export function checkAggregates(map: RelationMap): void {
  for (const [table, definition] of Object.entries(map)) {
    const aggregates: unknown = definition.aggregates
    if (aggregates === undefined) continue
    if (!isObject(aggregates))
      throw relationMapError(
        `${table}.aggregates`,
        `expected an object of aggregate definitions ({ postsViewsSum: { relation, fn, column } }), got ` +
          `${describeValue(aggregates)}`,
      )
    for (const [name, aggregate] of Object.entries(aggregates)) checkAggregate(map, table, name, aggregate)
  }
}

function checkAggregate(map: RelationMap, table: string, name: string, aggregate: unknown): void {
  const path = `${table}.aggregates.${name}`
  const definition = map[table]
  if (definition === undefined) return
  if (name.includes('.') || name === '*')
    throw relationMapError(path, `an aggregate name may not contain '.' or be '*', which relation paths use`)
  if (Object.hasOwn(definition.relations ?? {}, name))
    throw relationMapError(path, `'${name}' is already a relation of ${table}; pick another name`)
  const columns = definition.columns
  if ([name, ...columnSpellings(name)].some((spelling) => Object.hasOwn(columns, spelling)))
    throw relationMapError(
      path,
      `'${name}' is already a column of ${table}, which wheres and orders would use instead; pick another name`,
    )
  if (!isObject(aggregate))
    throw relationMapError(
      path,
      `expected an aggregate definition ({ relation, fn, column?, scope? }), got ${describeValue(aggregate)}`,
    )
  for (const key of Object.keys(aggregate)) {
    if (!KEYS.includes(key))
      throw relationMapError(
        `${path}.${key}`,
        `unknown key${didYouMean(key, KEYS)}; an aggregate takes ${KEYS.join(', ')}`,
      )
  }
  const { relation, fn, column, scope } = aggregate
  const relations = definition.relations ?? {}
  if (typeof relation !== 'string' || !Object.hasOwn(relations, relation)) {
    const named = typeof relation === 'string' ? `'${relation}'` : describeValue(relation)
    throw relationMapError(
      `${path}.relation`,
      `${named} is not a relation of ` +
        `${table}${typeof relation === 'string' ? didYouMean(relation, Object.keys(relations)) : ''}; expected one of ${Object.keys(relations).join(', ') || '(none declared)'}`,
    )
  }
  const target = relations[relation]
  if (target === undefined || target.type === 'morphTo')
    throw relationMapError(`${path}.relation`, `'${relation}' is a morphTo relation, which aggregates do not support`)
  if (typeof fn !== 'string' || !FUNCTIONS.includes(fn)) {
    throw relationMapError(
      `${path}.fn`,
      `${typeof fn === 'string' ? `'${fn}'` : describeValue(fn)} is not an aggregate function; expected one of ${FUNCTIONS.join(', ')}`,
    )
  }
  const related = map[target.table]
  if (related === undefined) return
  if (column === undefined) {
    if (fn !== 'count') throw relationMapError(`${path}.column`, `missing; '${fn}' needs a column of ${target.table}`)
  } else {
    if (typeof column !== 'string' || !Object.hasOwn(related.columns, column)) {
      const named = typeof column === 'string' ? `'${column}'` : describeValue(column)
      throw relationMapError(
        `${path}.column`,
        `${named} is not a column of ` +
          `${target.table}${typeof column === 'string' ? didYouMean(column, Object.keys(related.columns)) : ''}`,
      )
    }
    const type = columnType(related.columns[column] as ColumnSpec)
    if ((fn === 'sum' || fn === 'avg') && !NUMERIC.has(type))
      throw relationMapError(
        `${path}.column`,
        `'${fn}' needs a numeric column (integer or number), and ${target.table}.${column} is ${type}`,
      )
    if ((fn === 'min' || fn === 'max') && type === 'boolean')
      throw relationMapError(
        `${path}.column`,
        `'${fn}' over the boolean column ${target.table}.${column} is not portable; use count with a scope`,
      )
    if (fn !== 'count' && type === 'json')
      throw relationMapError(
        `${path}.column`,
        `'${fn}' over the json column ${target.table}.${column} has no value the databases share; use count`,
      )
  }
  if (scope !== undefined && (typeof scope !== 'string' || !Object.hasOwn(related.scopes ?? {}, scope))) {
    const named = typeof scope === 'string' ? `'${scope}'` : describeValue(scope)
    throw relationMapError(
      `${path}.scope`,
      `${named} is not a scope of ${target.table}; expected one of ` +
        `${Object.keys(related.scopes ?? {}).join(', ') || '(none declared)'}`,
    )
  }
}
