import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import type { Identifiers } from '../sql/identifiers.ts'
import { baseTableOf, putLastJoinFirst } from '../knex/builder-state.ts'

/** The name of the derived table holding a deferred page's keys, and the prefix of its key columns. */
export const DEFERRED_PAGE = 'kqp_page'
const KEY_COLUMN = 'kqp_key_'

/** The name of a deferred page's key column for the key at `index` of the key columns. */
export function pageKeyColumn(index: number): string {
  return `${KEY_COLUMN}${index}`
}

/**
 * `query` (a plain builder: a clone, changed in place) as a deferred join on the key columns `keys` of `ref`:
 * an inner query with every condition, join, order, limit and offset of `query` that selects only the keys,
 * and an outer query that joins the base table back to those keys, selects the columns and repeats the
 * order. The inner query decides the rows, so they are those of `query` by construction; skipping `offset`
 * entries of an index that holds the key (every secondary index in InnoDB and SQLite) costs no table reads.
 * The keys come first, and stay first through the dialect's `join` (`Dialect.deferredPageJoin`: `cross join … on`
 * keeps its join order on SQLite): not knowing that a bound limit is small, SQLite would otherwise walk the
 * whole base table in index order to spare itself sorting the page. `undefined` when the base table is not a
 * plain name. `pageKeys`, when given, makes the derived table of the keys from the inner query (see
 * `frequency-guarded-page.ts`); by default it is the inner query itself.
 *
 * ```sql
 * select posts.id, posts.title
 * from (select posts.id as kqp_key_0 from posts where … order by posts.created_at desc, posts.id desc limit ? offset
 * ?) as kqp_page
 * cross join posts on posts.id = kqp_page.kqp_key_0
 * order by posts.created_at desc, posts.id desc
 * ```
 */
export function deferredPage(
  query: Knex.QueryBuilder,
  names: Identifiers,
  ref: string,
  keys: readonly string[],
  join: Dialect['deferredPageJoin'],
  pageKeys: (inner: Knex.QueryBuilder) => Knex.QueryBuilder = (inner) => inner,
): Knex.QueryBuilder | undefined {
  const table = baseTableOf(query)
  if (table === undefined) return undefined
  const keyColumn = pageKeyColumn
  const inner = query.clone().clearSelect()
  inner.select(
    query.client.raw(
      keys.map((key, index) => `${names.column(ref, key)} as ${names.name(keyColumn(index))}`).join(', '),
    ),
  )
  const outer = query.clear('where').clear('limit').clear('offset').from(pageKeys(inner).as(DEFERRED_PAGE))
  const onKeys = function (this: Knex.JoinClause): void {
    keys.forEach((key, index) => this.on(`${ref}.${key}`, '=', `${DEFERRED_PAGE}.${keyColumn(index)}`))
  }
  if (join === 'cross join') outer.crossJoin(table, onKeys)
  else outer.join(table, onKeys)
  putLastJoinFirst(outer)
  return outer
}
