import type { Dialect } from '../dialect/dialect.ts'
import type { Knex } from 'knex'
import { deferredPage } from './deferred-page.ts'
import type { Identifiers } from '../sql/identifiers.ts'
import { holdsWhereRaw, limitByRaw, replaceWhereRaw } from '../knex/builder-state.ts'
import type { PageWindow } from './page-rewrite.ts'

/** The two writings of a page's client conditions and the guard that picks one (see {@link guardedPage}). */
export interface GuardedForms {
  /** The conditions as the query holds them: the listing form (the key's related rows found first, then sorted). */
  list: Knex.Raw
  /**
   * The same conditions with every relation filter a correlated test, for a walk of the page's order (the walking
   * form).
   */
  walk: Knex.Raw
  /** The text of {@link walk}, as written. */
  walkSql: string
  /**
   * The listing form to read once the probe has chosen it, when it differs from `list`: every relation filter key
   * first in a fenced `in (select … offset 0)` (`fencedList`). Written when first asked for, then the same raw;
   * `undefined` when the conditions hold no filter it fences.
   */
  fenced?: () => Knex.Raw | undefined
  /**
   * The key's `cap`-th related row, NULL when it has fewer: `(select 1 from post_tag where tag_id = (select …)
   * limit 1 offset cap − 1)`, read in an index.
   */
  probe: Knex.Raw
  /** How the page's rows are joined back to its keys (`Dialect.deferredPageJoin`). */
  join: Dialect['deferredPageJoin']
  /** Where the guard stands: each form's limit, or a condition of each form (`Dialect.frequencyGuard`). */
  at: 'limit' | 'where'
}

/** Names of the two branches of a guarded page. */
const LIST = 'kqp_list'
const WALK = 'kqp_walk'

/**
 * `query` (a plain builder: a clone, changed in place) as a deferred page whose keys are the `union all` of
 * the page read in both forms of `forms`: the list form limited to `case when <probe> is null then limit else 0
 * end` (the key has fewer than `cap` related rows), the walking form to `case when <probe> is not null then
 * limit else 0 end`. The probe is the same in both, so exactly one branch reads rows and the other returns
 * none before reading any (a zero limit); the
 * rows are those of `query` whichever branch reads them, joined back and ordered as `query` orders them.
 * With `forms.at` `'where'`, each branch keeps its limit and is read through `select * from (…) where <probe> is
 * null` (`is not null`) instead: outside the branch, the test stops it before it starts (parallel workers included).
 * `walking` rewrites the walking branch further (MariaDB's order cutoff). `undefined` when `query` does not
 * hold `forms.list` or its base table is not a plain name.
 *
 * ```sql
 * select posts.* from (
 *   select * from (select posts.id as kqp_key_0 from posts where posts.id in (select …) order by … limit case when
 *   (…) is null then ? else 0 end) as kqp_list
 *   union all
 *   select * from (select posts.id as kqp_key_0 from posts where exists (select …) order by … limit case when (…) is
 *   not null then ? else 0 end) as kqp_walk
 * ) as kqp_page cross join posts on posts.id = kqp_page.kqp_key_0 order by …
 * ```
 */
export function guardedPage(
  query: Knex.QueryBuilder,
  names: Identifiers,
  ref: string,
  keys: readonly string[],
  forms: GuardedForms,
  page: PageWindow,
  walking: (walk: Knex.QueryBuilder) => Knex.QueryBuilder = (walk) => walk,
): Knex.QueryBuilder | undefined {
  if (!holdsWhereRaw(query, forms.list)) return undefined
  const branch = (keys: Knex.QueryBuilder, test: ProbeTest, name: string): Knex.QueryBuilder =>
    probedForm(keys, name, { probe: forms.probe, test, at: forms.at }, page.limit)
  return deferredPage(query, names, ref, keys, forms.join, (inner) => {
    const walk = inner.clone()
    replaceWhereRaw(walk, forms.list, forms.walk)
    return branch(inner, 'is null', LIST).unionAll(branch(walking(walk), 'is not null', WALK))
  })
}

/** The test of a probe that lets a form read rows: NULL for the listing form, not NULL for the walking form. */
export type ProbeTest = 'is null' | 'is not null'

/**
 * `keys` (a form of a page, changed in place) as `select * from (keys) as name`, reading rows only when `probe`
 * passes `test`: with `at` `'where'`, through an outer condition, which PostgreSQL and MariaDB run once before the
 * form starts; with `'limit'`, through the form's own limit (`case when <probe> <test> then limit else 0 end`), which
 * SQLite reads before the form starts (it would read a form whose outer condition is false).
 */
export function probedForm(
  keys: Knex.QueryBuilder,
  name: string,
  { probe, test, at }: { probe: Knex.Raw; test: ProbeTest; at: 'limit' | 'where' },
  limit: number,
): Knex.QueryBuilder {
  const { client } = keys
  if (at === 'where') return client.queryBuilder().select('*').from(keys.as(name)).whereRaw(`? ${test}`, [probe])
  limitByRaw(keys, client.raw(`case when ? ${test} then ? else 0 end`, [probe, limit]))
  return client.queryBuilder().select('*').from(keys.as(name))
}
