import type { Knex } from 'knex'
import { replaceWhereRaw } from '../knex/builder-state.ts'
import type { BranchWalk } from './disjunction-page.ts'

/** Names of the two forms of a walked branch. */
const LISTED = 'kqp_listed'
const WALKED = 'kqp_walked'

/**
 * One branch of a page read as the union of its `or`'s branches (`keysOf`: the branch's keys in the page's order,
 * limited to offset + limit, holding the branch's conditions `branch`), in the form its probe picks within the one
 * statement (`Dialect.listedWalk`): listed as written while its listed filter holds fewer than `cap` related rows,
 * else walked in the page's order with every relation filter a correlated test (`walk.walk`), which stops once the
 * branch has its rows. The probe is a condition of each form, outside it: a database runs it once, before the form
 * starts, and exactly one form reads rows. `keysOf` as it is without `walk`.
 *
 * ```sql
 * select * from (select users.id as kqp_key_0 from users where users.id in (select posts.user_id from posts where
 *   posts.views < ?) order by users.id limit 100) as kqp_listed where (select 1 from posts where posts.views < ?
 *   limit 1 offset 19999) is null
 * union all
 * select * from (select users.id as kqp_key_0 from users where (select 1 from posts where posts.user_id = users.id
 *   and posts.views < ? limit 1) is not null order by users.id limit 100) as kqp_walked where (…) is not null
 * ```
 */
export function walkedBranch(
  keysOf: Knex.QueryBuilder,
  branch: Knex.Raw | undefined,
  walk: BranchWalk | undefined,
): Knex.QueryBuilder {
  if (walk === undefined || branch === undefined) return keysOf
  const { client } = keysOf
  const walked = keysOf.clone()
  replaceWhereRaw(walked, branch, walk.walk)
  const form = (keys: Knex.QueryBuilder, test: string, name: string): Knex.QueryBuilder =>
    client.queryBuilder().select('*').from(keys.as(name)).whereRaw(`? ${test}`, [walk.probe])
  return form(keysOf, 'is null', LISTED).unionAll(form(walked, 'is not null', WALKED))
}
