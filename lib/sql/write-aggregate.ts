import type { Knex } from 'knex'
import { plainStyle } from '../plan/condition-style.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate } from '../validate/query-plan.ts'
import type { AliasScope } from './alias-scope.ts'
import { aggregateRows, linkedTo } from './aggregate-rows.ts'
import type { SqlWriter } from './sql-writer.ts'
import { closeExists, openExists } from './write-exists.ts'

/**
 * Writes an aggregate of the row known as `ref` as a correlated scalar subquery over its related rows (see
 * `aggregateRows`), the related table's guard (and the pivot's) and the aggregate's scope applied inside:
 *
 * ```sql
 * (select count(*) from "comments" where "comments"."post_id" = "posts"."id" and (…guard…))
 * (select sum("posts"."views") from "posts" where "posts"."user_id" = "users"."id")
 * (exists (select 1 from "posts" where "posts"."user_id" = "users"."id"))          -- PostgreSQL, SQLite
 * ((select 1 from `posts` where `posts`.`user_id` = `users`.`id` limit 1) is not null)  -- MySQL/MariaDB
 * ```
 *
 * The form for selected aggregates and for filters (a bound on a `min` or `max` is a test of whether related rows
 * reach it instead: `writeExtremeTest`): per row, through the foreign key's index, it costs a page
 * of 20 or 1,000 rows next to nothing (figure 12). Orders use a grouped join instead (`joinAggregate`). A `min` or
 * `max` is grouped by the key (`… where posts.user_id = users.id group by posts.user_id`), which gives the same
 * value (no group, no row: NULL) but keeps PostgreSQL from reading it as the first row of an index on the column
 * filtered by the key (`order by views desc limit 1`: for a user without posts, the whole `posts(views)` index).
 */
export function writeAggregate(
  out: SqlWriter,
  aggregate: PlannedAggregate,
  ref: string,
  scope: AliasScope,
  map: RelationMap,
  client?: Knex.Client,
): void {
  const rows = aggregateRows(out, aggregate, scope, map, client)
  const exists = aggregate.kind === 'exists'
  // Bare existence, in the plain style's form (`DialectPlanner.bareRelation`).
  const style = plainStyle(out.dialect)
  out.text('(')
  if (exists) openExists(out, style, true, true)
  out.text(`select ${rows.value} from ${rows.from} where ${linkedTo(out, rows, aggregate, ref)}`)
  if (rows.conditions.sql !== '') out.text(' and ').append(rows.conditions)
  if (aggregate.kind === 'min' || aggregate.kind === 'max') out.text(` group by ${rows.keys.join(', ')}`)
  if (exists) closeExists(out, style, true, true)
  out.text(')')
}
