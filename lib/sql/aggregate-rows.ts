import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate } from '../validate/query-plan.ts'
import { aliasFor, type AliasScope } from './alias-scope.ts'
import { clauseOtherThanWhere, compileWhere } from '../knex/builder-state.ts'
import type { SqlWriter } from './sql-writer.ts'
import { parentKeyColumns, relatedKeyColumns } from '../validate/key-pairs.ts'

/** The related rows an aggregate reads, as the parts of a subquery over them. */
export interface AggregateRows {
  /** `"comments"`, or `"tags" inner join "post_tag" on …`, or the pivot alone. */
  from: string
  /** The quoted column that holds the parent's key: the related key, or the pivot's parent column. */
  key: string
  /** Every quoted column of the parent's key, paired in order with the parent's: `[key]`, or a composite key's. */
  keys: readonly string[]
  /** The aggregated value: `count(*)`, `sum("posts"."views")`, `1` for exists. */
  value: string
  /** The quoted column aggregated (`"posts"."views"`); absent for `count(*)` and exists. */
  column?: string
  /**
   * The conditions on the related rows (morph type, guards, scope), each already parenthesised or simple, with their
   * bindings.
   */
  conditions: SqlWriter
}

const WHERE = 'where '

/**
 * The parts of a subquery over the rows `aggregate` reads, with the related table's guard (and the pivot's)
 * and the aggregate's scope in `conditions`. A count or exists through a pivot reads only the pivot when the
 * related table has no guard and no scope or column applies. `scope` holds the names visible around it.
 */
export function aggregateRows(
  out: SqlWriter,
  aggregate: PlannedAggregate,
  scope: AliasScope,
  map: RelationMap,
  client?: Knex.Client,
): AggregateRows {
  const { names } = out
  const { relation, kind } = aggregate
  const { pivot } = relation
  const conditions = out.fresh()
  const and = (): SqlWriter => (conditions.sql === '' ? conditions : conditions.text(' and '))
  const guard = (table: string, tableAlias: string): void => {
    const sql = out.guards?.sql(table, tableAlias)
    if (sql === null || sql === undefined) return
    and().text(sql.sql)
    for (const binding of sql.bindings) conditions.bindings.push(binding)
  }
  const scopeSql =
    aggregate.scope === undefined
      ? undefined
      : compileScope(map, relation.table, aggregate.scope, client ?? out.guards?.client)
  const alias = aliasFor(relation.table, scope)
  const column = kind === 'exists' || aggregate.column === undefined ? undefined : names.column(alias, aggregate.column)
  const value = kind === 'exists' ? '1' : column === undefined ? 'count(*)' : `${kind}(${column})`
  if (
    pivot !== undefined &&
    aggregate.column === undefined &&
    scopeSql === undefined &&
    out.guards?.has(relation.table) !== true
  ) {
    const pivotAlias = aliasFor(pivot.table, scope)
    guard(pivot.table, pivotAlias)
    return {
      from: names.table(pivot.table, pivotAlias),
      key: names.column(pivotAlias, pivot.parentColumn),
      keys: [names.column(pivotAlias, pivot.parentColumn)],
      value,
      conditions,
    }
  }
  let from = names.table(relation.table, alias)
  let key = names.column(alias, relation.relatedKey)
  let pivotAlias = ''
  if (pivot !== undefined) {
    pivotAlias = aliasFor(pivot.table, new Set([...scope, alias]))
    from +=
      ` inner join ${names.table(pivot.table, pivotAlias)} on ` +
      `${names.column(pivotAlias, pivot.relatedColumn)} = ${key}`
    key = names.column(pivotAlias, pivot.parentColumn)
  }
  if (relation.morph !== undefined)
    and()
      .text(`${names.column(alias, relation.morph.column)} = `)
      .bind(relation.morph.value)
  guard(relation.table, alias)
  if (pivot !== undefined) guard(pivot.table, pivotAlias)
  if (scopeSql !== undefined) {
    and().text(scopeSql.sql)
    for (const binding of scopeSql.bindings) conditions.bindings.push(binding)
  }
  const keys = pivot === undefined ? relatedKeyColumns(relation).map((column) => names.column(alias, column)) : [key]
  return { from, key, keys, value, ...(column === undefined ? {} : { column }), conditions }
}

/**
 * The condition that links `rows` (of `aggregate`) to the row known as `ref`: each of its key columns equal to the
 * parent's, `"posts"."user_id" = "users"."id"`.
 */
export function linkedTo(out: SqlWriter, rows: AggregateRows, aggregate: PlannedAggregate, ref: string): string {
  const parentKeys = parentKeyColumns(aggregate.relation)
  return rows.keys.map((key, index) => `${key} = ${out.names.column(ref, parentKeys[index] ?? '')}`).join(' and ')
}

/** The where conditions a scope of `table` adds, as parenthesised SQL with `?` placeholders. */
function compileScope(
  map: RelationMap,
  table: string,
  name: string,
  client: Knex.Client | undefined,
): { sql: string; bindings: readonly Knex.Value[] } {
  const scope = map[table]?.scopes?.[name]
  if (scope === undefined || client === undefined)
    throw new Error(`knex-query-params: ${table}.scopes.${name}: the scope of an aggregate is missing`)
  const query = client.queryBuilder().from(table)
  scope(query)
  const other = clauseOtherThanWhere(query)
  if (other !== undefined)
    throw new Error(
      `knex-query-params: ${table}.scopes.${name}: the scope of an aggregate may only add where conditions, not ` +
        `'${other}'`,
    )
  const { sql, bindings } = compileWhere(query)
  return sql.startsWith(WHERE) ? { sql: `(${sql.slice(WHERE.length)})`, bindings } : { sql: '1 = 1', bindings: [] }
}
