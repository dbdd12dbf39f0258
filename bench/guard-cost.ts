import type { Knex } from 'knex'
import { relationMap } from '../fixtures/relation-map.ts'
import { demoRelationMap } from '../demo/relation-map.ts'
import { dialectOf } from '../lib/dialect/dialect-of.ts'
import { applyQueryParams, parseQueryParams } from '../lib/index.ts'
import {
  guardedCommentFilter,
  guardedTitleFilter,
  guardedUsersWithPostsAndComments,
} from './baselines/guarded-queries.ts'
import { handDialects } from './baselines/hand-dialect.ts'
import { clientQueryString } from './client-query-string.ts'
import { countQueries } from './count-queries.ts'
import type { BenchDatabase } from './data/ensure-dataset.ts'
import { measured, result, type BenchResult } from './result.ts'
import { compare, type Budget } from './timing.ts'
import { LARGE_EAGER_BUDGET } from './large-eager-budget.ts'

const FIGURE = '7. guard cost'

type Row = Record<string, unknown>

const fingerprintOf = (rows: unknown): string =>
  JSON.stringify(
    (rows as Row[]).map((user) => [
      user.id,
      ((user.posts ?? []) as Row[]).map((post) => [
        post.id,
        ((post.comments ?? []) as Row[]).map((comment) => comment.id),
      ]),
    ]),
  )

/**
 * Figure 7: what a row guard costs. The demo's soft-delete guard (`whereNull(<table>.deleted_at)` on every
 * table, `demo/relation-map.ts`) on the relation-filter and eager-loading requests of figures 2 and 3, on the
 * eager data set: the library with the guard (parse + apply + run) against hand-written SQL with the same
 * conditions in the same form — target ≤ 1.1 — and, for context, against the library without a guard.
 */
export async function guardCost(
  database: BenchDatabase,
  budget: Budget,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const db = database.knex
  const dialect = handDialects[database.dialect]
  const chosen = dialectOf(db.client).filteredRelation
  // Both filters below are pages over a broad condition: where the form depends on the condition, that is `exists`.
  const form = chosen === 'by-selectivity' ? 'exists' : chosen
  const results: BenchResult[] = []
  const filters: Array<{ name: string; request: Record<string, unknown>; hand: () => Knex.QueryBuilder }> = [
    {
      name: "posts.title like '%rust%', first 50",
      request: { wheres: [{ column: 'posts.title', operator: 'like', value: '%rust%', boolean: 'and' }], limit: 50 },
      hand: () => guardedTitleFilter(db, dialect, form, '%rust%', 50),
    },
    {
      name: "posts.comments.body = 'comment 777', first 50",
      request: {
        wheres: [{ column: 'posts.comments.body', operator: '=', value: 'comment 777', boolean: 'and' }],
        limit: 50,
      },
      hand: () => guardedCommentFilter(db, form, 'comment 777', 50),
    },
  ]
  for (const filter of filters) {
    const queryString = clientQueryString(filter.request)
    const guarded = (): Knex.QueryBuilder =>
      applyQueryParams(db('users'), parseQueryParams(queryString), demoRelationMap)
    const unguarded = (): Knex.QueryBuilder => applyQueryParams(db('users'), parseQueryParams(queryString), relationMap)
    const ids = (rows: unknown): string => (rows as Row[]).map((row) => String(row.id)).join(',')
    const [ours, hand] = [await guarded(), await filter.hand()]
    if (ids(ours) !== ids(hand))
      throw new Error(
        `guard cost '${filter.name}': the guarded library query and the hand-written one return different users`,
      )
    const vsHand = await compare(guarded, filter.hand, budget)
    const vsUnguarded = await compare(guarded, unguarded, budget)
    log(
      `  ${database.dialect} ${filter.name}: ×${vsHand.ratio.toFixed(3)} of hand-written with the same conditions, ×${vsUnguarded.ratio.toFixed(3)} of the library without a guard`,
    )
    results.push(
      result({
        figure: FIGURE,
        name: `filter ${filter.name}`,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured('guarded: parse + apply + run', vsHand.ours, 1),
        baseline: measured(
          `hand-written ${form === 'in' ? 'IN (select …)' : 'EXISTS'} with deleted_at is null`,
          vsHand.baseline,
          1,
        ),
        ratio: vsHand.ratio,
        target: { op: '<=', value: 1.1 },
        note: `${(ours as unknown as Row[]).length} rows`,
      }),
      result({
        figure: FIGURE,
        name: `filter ${filter.name}`,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured('guarded: parse + apply + run', vsUnguarded.ours, 1),
        baseline: measured('the library without a guard', vsUnguarded.baseline, 1),
        ratio: vsUnguarded.ratio,
        note: 'context: the guard adds conditions, not queries',
      }),
    )
  }

  const request = clientQueryString({ with: ['posts.comments'] })
  const guarded = (): Promise<unknown> =>
    applyQueryParams(db('users'), parseQueryParams(request), demoRelationMap, {
      maxEagerRows: LARGE_EAGER_BUDGET,
    }) as unknown as Promise<unknown>
  const unguarded = (): Promise<unknown> =>
    applyQueryParams(db('users'), parseQueryParams(request), relationMap, {
      maxEagerRows: LARGE_EAGER_BUDGET,
    }) as unknown as Promise<unknown>
  const hand = (): Promise<unknown> => guardedUsersWithPostsAndComments(db)
  if (fingerprintOf(await guarded()) !== fingerprintOf(await hand()))
    throw new Error('guard cost: the guarded eager load and the hand-written one load different graphs')
  const queries = {
    guarded: await countQueries(db, guarded),
    unguarded: await countQueries(db, unguarded),
    hand: await countQueries(db, hand),
  }
  if (queries.guarded !== queries.unguarded)
    throw new Error(`guard cost: the guard changed the number of queries (${queries.guarded} vs ${queries.unguarded})`)
  const vsHand = await compare(guarded, hand, budget)
  const vsUnguarded = await compare(guarded, unguarded, budget)
  log(
    `  ${database.dialect} with=posts.comments: ×${vsHand.ratio.toFixed(3)} of hand-written (${queries.guarded} vs ${queries.hand} queries), ×${vsUnguarded.ratio.toFixed(3)} of the library without a guard`,
  )
  results.push(
    result({
      figure: FIGURE,
      name: 'with=posts.comments, every user',
      dialect: database.dialect,
      unit: 'ms',
      ours: measured('guarded: parse + apply + run', vsHand.ours, queries.guarded),
      baseline: measured('hand-written 3 queries with deleted_at is null', vsHand.baseline, queries.hand),
      ratio: vsHand.ratio,
      target: { op: '<=', value: 1.1 },
    }),
    result({
      figure: FIGURE,
      name: 'with=posts.comments, every user',
      dialect: database.dialect,
      unit: 'ms',
      ours: measured('guarded: parse + apply + run', vsUnguarded.ours, queries.guarded),
      baseline: measured('the library without a guard', vsUnguarded.baseline, queries.unguarded),
      ratio: vsUnguarded.ratio,
      note: 'context',
    }),
  )
  return results
}
