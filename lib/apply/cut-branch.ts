import type { Knex } from 'knex'
import type { CutoffPlan } from '../plan/read-plan.ts'
import { cutoffListProbe, listedFromBase, withOrderCutoff, type OrderCutoff } from './order-cutoff.ts'

/** Names of the two forms of a cut-off branch. */
const LISTED = 'kqp_listed'
const CUT = 'kqp_cut'

/**
 * One branch of a page read as the union of its `or`'s branches (`keysOf`: the branch's keys in the page's order,
 * limited to `rows`), when the page's first order has a cutoff (`Dialect.cutoffBranches`): the branch in the form the
 * cutoff's list probe picks for that branch alone, within the one statement. The probe (`cutoffListProbe`: the
 * branch's `factor` × `rows`-th base row) is a condition of each form: where the branch holds fewer rows it is read
 * base table first and sorted (`listedFromBase`), else its order is walked up to the cutoff's bound
 * (`withOrderCutoff`), the bound's walk testing the probe too (MariaDB reads the bound while it plans, whichever form
 * is read). A rare branch is listed from its own index while a broad one stops early. Without `listJoins` the branch
 * is only cut off. `joining` rewrites the branch's conditions in both forms (not in the probe, which reads the base
 * table alone) to test the rows of the hops the page joins (see `joinedHopsWhere`): the walk of a branch with
 * `post.views > ?` is then a range of the ordered column's index.
 *
 * ```sql
 * select * from (select comments.id as kqp_key_0 from comments straight_join posts on … where <branch> and
 *   (select 1 from comments where <branch, unjoined> limit 1 offset 159) is null order by … limit 40) as kqp_listed
 * union all
 * select * from (select comments.id as kqp_key_0 from comments inner join posts on … cross join (<bound>) as kqp_cutoff
 *   where <branch> and (…) is not null and posts.views <= kqp_cutoff.kqp_bound order by … limit 40) as kqp_cut
 * ```
 */
export function cutBranch(
  keysOf: Knex.QueryBuilder,
  cutoff: OrderCutoff,
  rows: number,
  listProbe: NonNullable<CutoffPlan['listProbe']>,
  joining: (form: Knex.QueryBuilder) => void = () => {},
): Knex.QueryBuilder {
  const page = { offset: 0, limit: rows }
  const joined = (form: Knex.QueryBuilder): Knex.QueryBuilder => {
    joining(form)
    return form
  }
  if (cutoff.listJoins === undefined) return withOrderCutoff(joined(keysOf), cutoff, page)
  const { client } = keysOf
  const probe = cutoffListProbe(keysOf, cutoff, Math.min(listProbe.cap, listProbe.factor * rows))
  // knex's types leave out a builder among a raw's bindings, which it binds as a subquery.
  const tested = (sql: string): Knex.Raw => client.raw(sql, [probe] as unknown as Knex.Value[])
  const listed = listedFromBase(joined(keysOf.clone()).whereRaw(tested('? is null')), cutoff)
  const cut = withOrderCutoff(joined(keysOf).whereRaw(tested('? is not null')), cutoff, page)
  return client
    .queryBuilder()
    .select('*')
    .from(listed.as(LISTED))
    .unionAll(client.queryBuilder().select('*').from(cut.as(CUT)))
}
