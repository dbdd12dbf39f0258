import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate } from '../validate/planned-aggregate.ts'
import { aliasFor, type AliasScope } from './alias-scope.ts'
import { compileWhere, internalsOf } from './knex-internals.ts'
import type { SqlWriter } from './sql-writer.ts'

const WHERE = 'where '

/**
 * Writes an aggregate of the row known as `ref` as a correlated scalar subquery over its related rows, the
 * related table's guard (and the pivot's) and the aggregate's scope applied inside:
 *
 * ```sql
 * (select count(*) from "comments" where "comments"."post_id" = "posts"."id" and (…guard…))
 * (select sum("posts"."views") from "posts" where "posts"."user_id" = "users"."id")
 * (exists (select 1 from "posts" where "posts"."user_id" = "users"."id"))          -- PostgreSQL, SQLite
 * ((select 1 from `posts` where `posts`.`user_id` = `users`.`id` limit 1) is not null)  -- MySQL/MariaDB
 * ```
 *
 * A count or exists through a pivot reads only the pivot when the related table has no guard and no scope
 * applies. Measured against a grouped `left join` and PostgreSQL's `lateral` in figure 12 (see BENCHMARKS.md).
 */
export function writeAggregate(out: SqlWriter, aggregate: PlannedAggregate, ref: string, scope: AliasScope, map: RelationMap, client?: Knex.Client): void {
  const { names } = out
  const { relation, kind } = aggregate
  const { pivot } = relation
  const parentKey = names.column(ref, relation.parentKey)
  const scopeSql = aggregate.scope === undefined ? undefined : compileScope(map, relation.table, aggregate.scope, client ?? out.guards?.client)
  const pivotOnly = pivot !== undefined && aggregate.column === undefined && scopeSql === undefined && out.guards?.has(relation.table) !== true
  const alias = aliasFor(relation.table, scope)
  const visible = new Set([...scope, alias])
  const value = kind === 'exists' ? '1' : aggregate.column === undefined ? 'count(*)' : `${kind}(${names.column(alias, aggregate.column)})`
  const scalarExists = kind === 'exists' && out.dialect.bareRelation === 'scalar'
  out.text(kind === 'exists' ? (scalarExists ? '((' : '(exists (') : '(')
  if (pivotOnly) {
    const pivotAlias = aliasFor(pivot.table, scope)
    out.text(`select ${value} from ${names.table(pivot.table, pivotAlias)} where ${names.column(pivotAlias, pivot.parentColumn)} = ${parentKey}`)
    out.guards?.writeAnd(out, pivot.table, pivotAlias)
  } else {
    out.text(`select ${value} from ${names.table(relation.table, alias)}`)
    let pivotAlias = ''
    if (pivot === undefined) {
      out.text(` where ${names.column(alias, relation.relatedKey)} = ${parentKey}`)
    } else {
      pivotAlias = aliasFor(pivot.table, visible)
      out.text(
        ` inner join ${names.table(pivot.table, pivotAlias)} on ${names.column(pivotAlias, pivot.relatedColumn)} = ${names.column(alias, relation.relatedKey)}` +
          ` where ${names.column(pivotAlias, pivot.parentColumn)} = ${parentKey}`,
      )
    }
    if (relation.morph !== undefined) out.text(` and ${names.column(alias, relation.morph.column)} = `).bind(relation.morph.value)
    out.guards?.writeAnd(out, relation.table, alias)
    if (pivot !== undefined) out.guards?.writeAnd(out, pivot.table, pivotAlias)
    if (scopeSql !== undefined) {
      out.text(` and ${scopeSql.sql}`)
      for (const binding of scopeSql.bindings) out.bindings.push(binding)
    }
  }
  out.text(kind === 'exists' ? (scalarExists ? ' limit 1) is not null)' : '))') : ')')
}

/** The where conditions a scope of `table` adds, as parenthesised SQL with `?` placeholders. */
function compileScope(map: RelationMap, table: string, name: string, client: Knex.Client | undefined): { sql: string; bindings: readonly Knex.Value[] } {
  const scope = map[table]?.scopes?.[name]
  if (scope === undefined || client === undefined) throw new Error(`knex-query-params: ${table}.scopes.${name}: the scope of an aggregate is missing`)
  const query = client.queryBuilder().from(table)
  scope(query)
  const other = internalsOf(query)._statements.find((statement) => statement.grouping !== 'where')
  if (other !== undefined) throw new Error(`knex-query-params: ${table}.scopes.${name}: the scope of an aggregate may only add where conditions, not '${other.grouping}'`)
  const { sql, bindings } = compileWhere(query)
  return sql.startsWith(WHERE) ? { sql: `(${sql.slice(WHERE.length)})`, bindings } : { sql: '1 = 1', bindings: [] }
}
