import { performance } from 'node:perf_hooks'
import { applyQueryParams, parseQueryParams } from '../lib/index.ts'
import type { BenchDialect } from './data/bench-servers.ts'
import type { BenchDatabase } from './data/ensure-dataset.ts'
import { measured, result, type BenchResult } from './result.ts'
import type { BoundSql, ExpertForm } from './scale/scale-cases.ts'
import { scaleRelationMap } from './scale/scale-relation-map.ts'
import { compare, type Budget } from './timing.ts'

const FIGURE = '12. relation counts at scale'

type Row = Record<string, unknown>

const COLUMNS = 'posts.id, posts.user_id, posts.title, posts.kind, posts.published_at, posts.views, posts.created_at'
const SCALAR = '(select count(*) from comments where comments.post_id = posts.id)'
const GROUPED = 'left join (select post_id, count(*) as n from comments group by post_id) as c on c.post_id = posts.id'
const LATERAL = 'left join lateral (select count(*) as n from comments where comments.post_id = posts.id) as c on true'

/** One request of figure 12: a page of posts with `comments_count`, in some order. */
interface AggregateCase {
  name: string
  request: string
  limit: number
  /** The hand-written order, after the count is known as `count`. */
  order: (count: string) => string
}

const CASES: readonly AggregateCase[] = [20, 1000].flatMap((limit) => [
  {
    name: `newest posts with commentsCount, page of ${limit.toLocaleString('en')}`,
    request: `with[0]=commentsCount&orders[0][column]=created_at&orders[0][direction]=desc&limit=${limit}`,
    limit,
    order: () => 'posts.created_at desc, posts.id desc',
  },
  {
    name: `most commented posts (order by commentsCount), page of ${limit.toLocaleString('en')}`,
    request: `with[0]=commentsCount&orders[0][column]=commentsCount&orders[0][direction]=desc&limit=${limit}`,
    limit,
    order: (count: string) => `${count} desc, posts.id desc`,
  },
])

/** The forms an expert weighs for a page with a count: a scalar subquery, a grouped left join, and (PostgreSQL) lateral. */
function expertForms(dialect: BenchDialect, scaleCase: AggregateCase): ExpertForm[] {
  const limit = `limit ${scaleCase.limit}`
  const forms: ExpertForm[] = [
    {
      name: 'scalar subquery',
      why: 'one probe of comments(post_id) per row it is needed for',
      sql: `select ${COLUMNS}, ${SCALAR} as comments_count from posts order by ${scaleCase.order(SCALAR)} ${limit}`,
      bindings: [],
    },
    {
      name: 'grouped left join',
      why: 'one pass over comments, grouped, joined on the key',
      sql: `select ${COLUMNS}, coalesce(c.n, 0) as comments_count from posts ${GROUPED} order by ${scaleCase.order('coalesce(c.n, 0)')} ${limit}`,
      bindings: [],
    },
  ]
  if (dialect === 'postgres') {
    forms.push({
      name: 'lateral',
      why: 'a per-row subquery the planner may run after the limit',
      sql: `select ${COLUMNS}, c.n as comments_count from posts ${LATERAL} order by ${scaleCase.order('c.n')} ${limit}`,
      bindings: [],
    })
  }
  return forms
}

function rowsOf(database: BenchDatabase, raw: unknown): Row[] {
  if (database.dialect === 'postgres') return (raw as { rows: Row[] }).rows
  if (database.dialect === 'mysql') return (raw as [Row[]])[0]
  return raw as Row[]
}

async function run(database: BenchDatabase, query: BoundSql): Promise<Row[]> {
  return rowsOf(database, await database.knex.raw(query.sql, query.bindings))
}

const fingerprint = (rows: readonly Row[]): string =>
  rows.map((row) => `${String(row.id)}:${Number(row.comments_count)}`).join(',')

async function timeOnce(operation: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await operation()
  return performance.now() - start
}

/**
 * Figure 12: a page of 20 and of 1,000 posts with `with[0]=commentsCount`, ordered by `created_at` and by
 * the count itself, on figure 6's `scale` data set (1M posts and 1M comments, 2M posts on PostgreSQL; the
 * index `comments(post_id)`). The library's SQL against the fastest hand-written form for the database: a
 * scalar subquery, a grouped `left join`, or `lateral` on PostgreSQL (target ≤ 1.2). Every form must return
 * the library's rows, in its order, with the same counts, before anything is timed.
 */
export async function aggregatesAtScale(
  database: BenchDatabase,
  budget: Budget,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const results: BenchResult[] = []
  for (const scaleCase of CASES) {
    const compiled = applyQueryParams(
      database.knex('posts'),
      parseQueryParams(scaleCase.request),
      scaleRelationMap,
    ).toSQL()
    const ours: BoundSql = { sql: compiled.sql, bindings: compiled.bindings as Array<string | number> }
    const mine = await run(database, ours)
    const library = await applyQueryParams(
      database.knex('posts'),
      parseQueryParams(scaleCase.request),
      scaleRelationMap,
    )
    if (fingerprint(library as Row[]) !== fingerprint(mine))
      throw new Error(
        `${FIGURE} '${scaleCase.name}': the library's SQL run as text returns other rows than the library`,
      )
    if ((library as Row[]).some((row) => typeof row.comments_count !== 'number'))
      throw new Error(`${FIGURE} '${scaleCase.name}': comments_count is not a number`)
    const tried: Array<{ form: ExpertForm; ms: number }> = []
    for (const form of expertForms(database.dialect, scaleCase)) {
      let theirs: Row[] = []
      const ms = await timeOnce(async () => {
        theirs = await run(database, form)
      })
      if (fingerprint(theirs) !== fingerprint(mine)) {
        throw new Error(
          `${FIGURE} '${scaleCase.name}' on ${database.dialect}: '${form.name}' returns other rows (${fingerprint(theirs).slice(0, 80)} vs ${fingerprint(mine).slice(0, 80)})`,
        )
      }
      tried.push({ form, ms })
    }
    // A second run of the forms within 3× of the fastest first run, to pick the best one warm.
    const fastestFirst = Math.min(...tried.map(({ ms }) => ms))
    for (const entry of tried)
      if (entry.ms <= 3 * fastestFirst) entry.ms = Math.min(entry.ms, await timeOnce(() => run(database, entry.form)))
    tried.sort((a, b) => a.ms - b.ms)
    const best = tried[0]
    if (best === undefined) throw new Error(`${FIGURE}: no hand-written form`)
    const slow = fastestFirst > 500
    const timing = await compare(
      () => run(database, ours),
      () => run(database, best.form),
      slow ? { ...budget, minSamples: 3, timeMs: 0 } : budget,
    )
    const others = tried.map(({ form, ms }) => `${form.name} ${ms.toFixed(1)} ms`).join(', ')
    results.push(
      result({
        figure: FIGURE,
        name: scaleCase.name,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured("the library's SQL", timing.ours, 1),
        baseline: measured(`hand-written ${best.form.name}`, timing.baseline, 1),
        ratio: timing.ratio,
        target: { op: '<=', value: 1.2 },
        note: `${best.form.why} (forms tried, best of two runs or one when 3× slower: ${others})`,
      }),
    )
    log(
      `  ${database.dialect} ${scaleCase.name}: ${timing.ours.median.toFixed(2)} ms vs ${timing.baseline.median.toFixed(2)} ms (${best.form.name}) ×${timing.ratio.toFixed(3)}; forms tried: ${others}`,
    )
  }
  return results
}
