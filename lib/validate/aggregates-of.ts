import { databaseColumn } from '../map/columns.ts'
import { isColumnName } from './resolve-column.ts'
import type { ColumnSpec, RelationMap } from '../relation-map.ts'
import { columnType } from '../map/columns.ts'
import type { PlannedAggregate } from './query-plan.ts'
import { relationsOf } from './relations-of.ts'

/**
 * The property an aggregate is returned under, and the spelling its name is matched in: every capital letter
 * becomes `_` and the lower-case letter (`postsViewsSum` → `posts_views_sum`, `posts_count` unchanged), the
 * rule `SnakeCase` of `AggregateRecord` types.
 */
export function aggregateKey(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
}

/** The aggregates a client may ask for on one table, by the snake_case of their name, in the order they are listed. */
export interface TableAggregates {
  bySnakeName: ReadonlyMap<string, PlannedAggregate>
  /**
   * The names a client may use, for `allowed` in errors: declared ones, then `<relation>Count` and `<relation>Exists`.
   */
  names: readonly string[]
}

const cache = new WeakMap<RelationMap, Map<string, TableAggregates>>()

/**
 * The aggregates of `table`: its declared `aggregates`, then `<relation>Count` for each to-many relation
 * (hasMany, belongsToMany, morphMany) and `<relation>Exists` for each direct relation (not `morphTo`).
 * A declared name wins over an implicit one of the same spelling. Memoised per map object.
 */
export function aggregatesOf(map: RelationMap, table: string): TableAggregates {
  let byTable = cache.get(map)
  if (byTable === undefined) cache.set(map, (byTable = new Map()))
  let found = byTable.get(table)
  if (found === undefined) byTable.set(table, (found = collect(map, table)))
  return found
}

function collect(map: RelationMap, table: string): TableAggregates {
  const bySnakeName = new Map<string, PlannedAggregate>()
  const relations = relationsOf(map, table)
  const add = (aggregate: PlannedAggregate): void => {
    const snake = aggregateKey(aggregate.name)
    if (!bySnakeName.has(snake)) bySnakeName.set(snake, aggregate)
  }
  for (const [name, definition] of Object.entries(map[table]?.aggregates ?? {})) {
    const relation = relations.get(definition.relation)
    if (relation === undefined || relation.kind !== 'direct') continue
    const related = map[relation.table]?.columns ?? {}
    const spec: ColumnSpec | undefined = definition.column === undefined ? undefined : related[definition.column]
    const column = definition.column === undefined ? undefined : databaseColumn(map, relation.table, definition.column)
    const type =
      definition.fn === 'count'
        ? 'integer'
        : definition.fn === 'avg'
          ? 'number'
          : spec === undefined
            ? 'number'
            : columnType(spec)
    add({
      name,
      key: aggregateKey(name),
      kind: definition.fn,
      relation,
      ...(column === undefined ? {} : { column }),
      ...(definition.scope === undefined ? {} : { scope: definition.scope }),
      type,
      nullable: definition.fn !== 'count',
      ...(type === 'datetime' && typeof spec === 'object' && spec.storage === 'epoch_s' ? { epochSeconds: true } : {}),
    })
  }
  for (const relation of relations.values()) {
    if (relation.kind !== 'direct') continue
    if (relation.many)
      add({
        name: `${relation.name}Count`,
        key: `${aggregateKey(relation.name)}_count`,
        kind: 'count',
        relation,
        type: 'integer',
        nullable: false,
      })
    add({
      name: `${relation.name}Exists`,
      key: `${aggregateKey(relation.name)}_exists`,
      kind: 'exists',
      relation,
      type: 'boolean',
      nullable: false,
    })
  }
  return { bySnakeName, names: [...bySnakeName.values()].map((aggregate) => aggregate.name) }
}

/** The aggregate of `table` the client's `name` means (`postsCount` or `posts_count`), if any. */
export function findAggregate(map: RelationMap, table: string, name: string): PlannedAggregate | undefined {
  return aggregatesOf(map, table).bySnakeName.get(aggregateKey(name))
}

/**
 * The aggregate a `wheres` or `orders` column names: a name without a dot (or `table.name` of the base
 * table) that is not a column of `table` but an aggregate of it. Columns win over aggregates.
 */
export function aggregateColumn(map: RelationMap, table: string, name: string): PlannedAggregate | undefined {
  if (isColumnName(map, table, name)) return undefined
  const segments = name.split('.')
  if (segments.length === 2 && segments[0] === table && !relationsOf(map, table).has(table)) segments.shift()
  const bare = segments.length === 1 ? (segments[0] ?? '') : undefined
  if (bare === undefined || isColumnName(map, table, bare)) return undefined
  return findAggregate(map, table, bare)
}
