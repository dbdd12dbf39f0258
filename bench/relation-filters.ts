import type { Knex } from 'knex'
import { relationMap } from '../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../lib/index.ts'
import { handDialects } from './baselines/hand-dialect.ts'
import { commentFilter, titleFilter, type RelationFilterCase } from './baselines/relation-filter-queries.ts'
import { clientQueryString } from './client-query-string.ts'
import type { BenchDatabase } from './data/ensure-dataset.ts'
import { explain } from './explain.ts'
import { measured, result, type BenchResult } from './result.ts'
import { compare, type Budget } from './timing.ts'

const FIGURE = '3. relation filters'

/** A query plan, for `BENCHMARKS.md`. */
export interface ExplainRecord {
  /** The figure the plan belongs to; figure 3 when absent (older results). */
  figure?: string
  dialect: 'sqlite' | 'postgres' | 'mysql'
  name: string
  form: string
  sql: string
  plan: string
}

const CASES: readonly RelationFilterCase[] = [
  titleFilter('%rust%', 50),
  titleFilter('%rust%'),
  commentFilter('comment 777', 50),
  commentFilter('comment 777'),
]

type Row = Record<string, unknown>

const ids = (rows: unknown): string => (rows as Row[]).map((row) => String(row.id)).join(',')

/**
 * Figure 3: users filtered through relations on the large data set (100,000 users, 1,000,000 posts,
 * 2,000,000 comments, the migrations' indexes): the library's query (parse + apply + run) against the
 * best hand-written SQL (correlated `EXISTS`) — target ≤ 1.05 — and against `JOIN` + `DISTINCT`.
 */
export async function relationFilters(
  database: BenchDatabase,
  budget: Budget,
  joinBudget: Budget,
  log: (line: string) => void,
): Promise<{ results: BenchResult[]; explains: ExplainRecord[] }> {
  const db = database.knex
  const dialect = handDialects[database.dialect]
  const results: BenchResult[] = []
  const explains: ExplainRecord[] = []
  for (const filter of CASES) {
    const queryString = clientQueryString(filter.request)
    const ours = (): Knex.QueryBuilder => applyQueryParams(db('users'), parseQueryParams(queryString), relationMap)
    const exists = (): Knex.QueryBuilder => filter.exists(db, dialect)
    const join = (): Knex.QueryBuilder => filter.joinDistinct(db, dialect)

    const [oursRows, existsRows, joinRows] = [await ours(), await exists(), await join()]
    const sorted = (rows: unknown): string => ids([...(rows as Row[])].sort((a, b) => Number(a.id) - Number(b.id)))
    if (sorted(oursRows) !== sorted(existsRows)) throw new Error(`relation filter '${filter.name}': the library and the hand-written EXISTS return different users`)
    if (sorted(oursRows) !== sorted(joinRows)) throw new Error(`relation filter '${filter.name}': the library and JOIN + DISTINCT return different users`)
    const matches = (oursRows as unknown as Row[]).length

    const plans = { ours: await explain(database, ours()), exists: await explain(database, exists()), join: await explain(database, join()) }
    const stripRows = (plan: string): string => plan.replace(/\(actual rows=\d+ loops=\d+\)/g, '')
    explains.push({ dialect: database.dialect, name: filter.name, form: 'library', sql: ours().toSQL().sql, plan: plans.ours })
    explains.push({
      dialect: database.dialect,
      name: filter.name,
      form: 'hand-written EXISTS',
      sql: exists().toSQL().sql,
      plan: stripRows(plans.exists) === stripRows(plans.ours) ? '(the same plan as the library query)' : plans.exists,
    })
    explains.push({ dialect: database.dialect, name: filter.name, form: 'JOIN + DISTINCT', sql: join().toSQL().sql, plan: plans.join })

    const run = (build: () => Knex.QueryBuilder) => async (): Promise<void> => {
      await build()
    }
    const vsExists = await compare(run(ours), run(exists), budget)
    const vsJoin = await compare(run(ours), run(join), joinBudget)
    log(`  ${database.dialect} ${filter.name}: ×${vsExists.ratio.toFixed(3)} of EXISTS, ×${vsJoin.ratio.toFixed(3)} of JOIN + DISTINCT (${matches} rows)`)
    results.push(
      result({
        figure: FIGURE,
        name: filter.name,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured('parse + apply + run', vsExists.ours, 1),
        baseline: measured('hand-written correlated EXISTS', vsExists.baseline, 1),
        ratio: vsExists.ratio,
        target: { op: '<=', value: 1.05 },
        note: `${matches} rows`,
      }),
      result({
        figure: FIGURE,
        name: filter.name,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured('parse + apply + run', vsJoin.ours, 1),
        baseline: measured('INNER JOIN + DISTINCT', vsJoin.baseline, 1),
        ratio: vsJoin.ratio,
        note: `${matches} rows`,
      }),
    )
  }
  return { results, explains }
}
