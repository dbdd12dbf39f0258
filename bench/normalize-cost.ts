import { relationMap } from '../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../lib/index.ts'
import { clientQueryString } from './client-query-string.ts'
import type { BenchDatabase } from './data/ensure-dataset.ts'
import type { DatasetSpec } from './data/dataset-spec.ts'
import { measured, result, type BenchResult } from './result.ts'
import { compare, type Budget } from './timing.ts'
import { LARGE_EAGER_BUDGET } from './large-eager-budget.ts'

const FIGURE = '11. JSON values (normalized rows)'

/**
 * Figure 11: what turning rows into the JSON values of their declared types costs, on figure 2's data set:
 * the library with its default `values: 'json'` against the same request with `values: 'driver'` (the driver's
 * own values, no normalizing), interleaved in one run. Two reads: `with=posts.comments` for every user
 * (1,000 users, 10,000 posts, 50,000 comments, normalized at every level), and one 1,000-row page of posts
 * (ten columns: integers, booleans, numbers, datetimes). Target: at most 5% over the unnormalized path.
 */
export async function normalizeCost(database: BenchDatabase, spec: DatasetSpec, budget: Budget, log: (line: string) => void): Promise<BenchResult[]> {
  const db = database.knex
  const cases = [
    { name: `with=posts.comments (${spec.users} users, ${spec.posts} posts, ${spec.comments} comments)`, request: clientQueryString({ with: ['posts.comments'] }), table: 'users' },
    { name: '1,000-row page of posts (limit=1000, order by id)', request: clientQueryString({ limit: 1000, page: 1, orders: [{ column: 'id', direction: 'asc' }] }), table: 'posts' },
  ]
  const results: BenchResult[] = []
  for (const { name, request, table } of cases) {
    const json = (): Promise<unknown> => applyQueryParams(db(table), parseQueryParams(request), relationMap, { maxEagerRows: LARGE_EAGER_BUDGET }) as unknown as Promise<unknown>
    const driver = (): Promise<unknown> => applyQueryParams(db(table), parseQueryParams(request), relationMap, { values: 'driver', maxEagerRows: LARGE_EAGER_BUDGET }) as unknown as Promise<unknown>
    const comparison = await compare(json, driver, budget)
    log(`  ${database.dialect}: ${name}: ×${comparison.ratio.toFixed(3)} of the driver's values`)
    results.push(
      result({
        figure: FIGURE,
        name,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured("parse + apply + run, values: 'json' (default)", comparison.ours),
        baseline: measured("the same, values: 'driver' (no normalizing)", comparison.baseline),
        ratio: comparison.ratio,
        target: { op: '<=', value: 1.05 },
      }),
    )
  }
  return results
}
