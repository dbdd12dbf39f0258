import { relationMap } from '../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams, type RelationMap } from '../lib/index.ts'
import { clientQueryString } from './client-query-string.ts'
import { demoRecipe, type BenchDatabase, type DatasetRecipe } from './data/ensure-dataset.ts'
import type { DatasetSpec } from './data/dataset-spec.ts'
import { measured, result, type BenchResult } from './result.ts'
import { compare, type Budget } from './timing.ts'
import { LARGE_EAGER_BUDGET } from './large-eager-budget.ts'

const FIGURE = '11. JSON values (normalized rows)'

/** The demo tables' `datetime` columns, which the ISO variant of the data set rewrites. */
const DATETIME_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  teams: ['created_at', 'updated_at'],
  users: ['created_at', 'updated_at'],
  posts: ['published_at', 'created_at', 'updated_at'],
  comments: ['created_at', 'updated_at'],
}

/**
 * Figure 2's data set on SQLite with every date-time stored as ISO 8601 text with milliseconds in UTC (the JSON
 * value itself, `storage: 'iso'`) instead of SQLite's `YYYY-MM-DD HH:MM:SS`: the same rows otherwise.
 */
export function isoDatetimeRecipe(spec: DatasetSpec): DatasetRecipe {
  const demo = demoRecipe(spec)
  return {
    name: `${spec.name}-iso`,
    fingerprint: (dialect) => `${demo.fingerprint(dialect)}:iso`,
    async build(db, dialect, log) {
      await demo.build(db, dialect, log)
      for (const [table, columns] of Object.entries(DATETIME_COLUMNS)) {
        await db.raw(
          `update ${table} set ${columns.map((column) => `${column} = strftime('%Y-%m-%dT%H:%M:%fZ', ${column})`).join(', ')}`,
        )
      }
    },
  }
}

/** The demo map with each `datetime` column declared `storage: 'iso'`. */
const isoMap: RelationMap = Object.fromEntries(
  Object.entries(relationMap).map(([table, definition]) => [
    table,
    {
      ...definition,
      columns: Object.fromEntries(
        Object.entries(definition.columns).map(([name, spec]) => [
          name,
          (typeof spec === 'string' ? spec : spec.type) === 'datetime'
            ? { ...(typeof spec === 'string' ? { type: spec } : spec), storage: 'iso' }
            : spec,
        ]),
      ),
    },
  ]),
) as RelationMap

/**
 * Figure 11: what turning rows into the JSON values of their declared types costs, on figure 2's data set:
 * the library with its default `values: 'json'` against the same request with `values: 'driver'` (the driver's
 * own values, no normalizing), interleaved in one run. Two reads: `with=posts.comments` for every user
 * (1,000 users, 10,000 posts, 50,000 comments, normalized at every level), and one 1,000-row page of posts
 * (ten columns: integers, booleans, numbers, datetimes). With `storage: 'iso'`, the same on the SQLite data set
 * whose date-times are stored as ISO 8601 text ({@link isoDatetimeRecipe}). Target: at most 5% over the
 * unnormalized path.
 */
export async function normalizeCost(
  database: BenchDatabase,
  spec: DatasetSpec,
  budget: Budget,
  log: (line: string) => void,
  storage?: 'iso',
): Promise<BenchResult[]> {
  const db = database.knex
  const map = storage === 'iso' ? isoMap : relationMap
  const stored = storage === 'iso' ? ", date-times stored as ISO text (storage: 'iso')" : ''
  const cases = [
    {
      name: `with=posts.comments (${spec.users} users, ${spec.posts} posts, ${spec.comments} comments)${stored}`,
      request: clientQueryString({ with: ['posts.comments'] }),
      table: 'users',
    },
    {
      name: `1,000-row page of posts (limit=1000, order by id)${stored}`,
      request: clientQueryString({ limit: 1000, page: 1, orders: [{ column: 'id', direction: 'asc' }] }),
      table: 'posts',
    },
  ]
  const results: BenchResult[] = []
  for (const { name, request, table } of cases) {
    const json = (): Promise<unknown> =>
      applyQueryParams(db(table), parseQueryParams(request), map, {
        maxEagerRows: LARGE_EAGER_BUDGET,
      }) as unknown as Promise<unknown>
    const driver = (): Promise<unknown> =>
      applyQueryParams(db(table), parseQueryParams(request), map, {
        values: 'driver',
        maxEagerRows: LARGE_EAGER_BUDGET,
      }) as unknown as Promise<unknown>
    const comparison = await compare(json, driver, { ...budget, minSamples: Math.max(budget.minSamples ?? 5, 15) })
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
