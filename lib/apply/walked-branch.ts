import type { Knex } from 'knex'
import { replaceWhereRaw } from '../knex/builder-state.ts'
import { probedForm } from './frequency-guarded-page.ts'
import type { BranchWalk } from './disjunction-page.ts'

/** Names of the two forms of a walked branch. */
const LISTED = 'kqp_listed'
const WALKED = 'kqp_walked'

/**
 * One branch of a page read as the union of its `or`'s branches (`keysOf`: the branch's keys in the page's order,
 * limited to `rows`, offset + limit, holding the branch's conditions `branch`), in the form its probe picks within the
 * one statement (see `DisjunctionPlan.walks`): listed (`walk.listed`) while its listed filters hold fewer than `cap`
 * related rows, else walked in the page's order with every relation filter a correlated test (`walk.walked`), which
 * stops once the branch has its rows. Exactly one form reads rows. With `at` `'where'` (MariaDB) the probe is a
 * condition outside each form, which the database runs once, before the form starts; with `'limit'` (SQLite, which
 * would read a form whose outer condition is false) it is each form's limit, 0 for the form not chosen. `keysOf` as
 * it is without `walk`.
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
  rows: number,
): Knex.QueryBuilder {
  if (walk === undefined || branch === undefined) return keysOf
  const listed = keysOf.clone()
  replaceWhereRaw(listed, branch, walk.listed)
  const walked = keysOf
  replaceWhereRaw(walked, branch, walk.walked)
  const { probe, at } = walk
  return probedForm(listed, LISTED, { probe, test: 'is null', at }, rows).unionAll(
    probedForm(walked, WALKED, { probe, test: 'is not null', at }, rows),
  )
}
