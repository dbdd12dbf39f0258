import type { Knex } from 'knex'
import { performance } from 'node:perf_hooks'
import { applyQueryParams, countQuery, paginate, parseQueryParams } from '../lib/index.ts'
import { clientQueryString } from './client-query-string.ts'
import type { BenchDatabase } from './data/ensure-dataset.ts'
import { explainSql } from './explain.ts'
import type { ExplainRecord } from './relation-filters.ts'
import { measured, result, type BenchResult } from './result.ts'
import { SCALE_CASES, type BoundSql, type ExpertForm, type ScaleCase } from './scale/scale-cases.ts'
import { scaleRelationMap } from './scale/scale-relation-map.ts'
import { compare, type Budget } from './timing.ts'

const FIGURE = '6. common queries at scale'

type Row = Record<string, unknown>

/** The rows of a `knex.raw` result, whatever the driver. */
function rowsOf(database: BenchDatabase, raw: unknown): Row[] {
  if (database.dialect === 'postgres') return (raw as { rows: Row[] }).rows
  if (database.dialect === 'mysql') return (raw as [Row[]])[0]
  return raw as Row[]
}

async function runSql(database: BenchDatabase, query: BoundSql): Promise<Row[]> {
  return rowsOf(database, await database.knex.raw(query.sql, query.bindings))
}

/**
 * {@link runSql} stopped by the server after `ms` (PostgreSQL `statement_timeout`, MariaDB
 * `max_statement_time`); `undefined` when it was stopped. SQLite runs it to the end.
 */
async function runSqlWithin(database: BenchDatabase, query: BoundSql, ms: number): Promise<Row[] | undefined> {
  try {
    if (database.dialect === 'postgres') {
      return await database.knex.transaction(async (trx) => {
        await trx.raw(`set local statement_timeout = ${ms}`)
        return rowsOf(database, await trx.raw(query.sql, query.bindings))
      })
    }
    if (database.dialect === 'mysql')
      return rowsOf(
        database,
        await database.knex.raw(`set statement max_statement_time = ${ms / 1000} for ${query.sql}`, query.bindings),
      )
    return await runSql(database, query)
  } catch (error) {
    if (/statement timeout|max_statement_time|interrupted/i.test(String(error))) return undefined
    throw error
  }
}

const ids = (rows: readonly Row[]): string => rows.map((row) => String(row.id)).join(',')

interface Sides {
  /** The whole request: parse + apply + run (or `paginate`). */
  ours: () => Promise<{ rows: Row[]; total?: number }>
  /**
   * The statements the library sends for it once it has read the request before (a guarded page's form is then
   * remembered: see `frequencyMemoMs`), in order, sent as text like the hand-written SQL: the page, and the count.
   */
  oursSql: BoundSql[]
  /** The probe a guarded page sends first when its filter value is read for the first time (`frequencyMemoMs: 0`). */
  probeSql: BoundSql | undefined
  /** Runs {@link oursSql}, after {@link probeSql} with `probe`. */
  runOursSql: (probe?: boolean) => Promise<{ rows: Row[]; total?: number }>
  expert: (form: ExpertForm) => Promise<{ rows: Row[]; total?: number }>
}

/** A statement as knex reports it in its `query` event: PostgreSQL's `$1` placeholders back to knex's `?`. */
function sentStatement(database: BenchDatabase, query: { sql: string; bindings?: readonly unknown[] }): BoundSql {
  const sql = database.dialect === 'postgres' ? query.sql.replace(/\$\d+/g, '?') : query.sql
  return { sql, bindings: (query.bindings ?? []) as Array<string | number> }
}

/** The statements `run` sends through `db`, in order. */
async function statementsSent(database: BenchDatabase, run: () => Promise<unknown>): Promise<BoundSql[]> {
  const sent: BoundSql[] = []
  const listen = (query: { sql: string; bindings?: readonly unknown[] }): void => {
    sent.push(sentStatement(database, query))
  }
  database.knex.on('query', listen)
  try {
    await run()
  } finally {
    database.knex.off('query', listen)
  }
  return sent
}

async function sides(database: BenchDatabase, scaleCase: ScaleCase): Promise<Sides> {
  const db = database.knex
  const queryString = clientQueryString(scaleCase.request)
  const table = scaleCase.table ?? 'posts'
  const map = scaleCase.map ?? scaleRelationMap
  const builder = (): Knex.QueryBuilder => applyQueryParams(db(table), parseQueryParams(queryString), map)
  const count = scaleCase.count?.(database.dialect)
  const first = await statementsSent(database, () =>
    applyQueryParams(db(table), parseQueryParams(queryString), map, { frequencyMemoMs: 0 }),
  )
  await builder()
  const page = await statementsSent(database, () => builder())
  const probeSql = first.length > page.length ? first[0] : undefined
  if (first.at(-1)?.sql !== page.at(-1)?.sql || first.length > page.length + 1)
    throw new Error(`${scaleCase.name}: a first read sends other statements than a later one`)
  const oursSql: BoundSql[] = [...page]
  if (scaleCase.withCount === true) {
    const counting = countQuery(builder()).toSQL()
    oursSql.push({ sql: counting.sql, bindings: counting.bindings as Array<string | number> })
  }
  const runPage = async (probe: boolean): Promise<Row[]> => {
    if (probe && probeSql !== undefined) await runSql(database, probeSql)
    let rows: Row[] = []
    for (const statement of page) rows = await runSql(database, statement)
    return rows
  }
  const counting = oursSql[page.length]
  return {
    oursSql,
    probeSql,
    runOursSql: async (probe = false) => {
      if (page.length === 0) throw new Error('no SQL')
      if (counting === undefined) return { rows: await runPage(probe) }
      const [rows, counted] = await Promise.all([runPage(probe), runSql(database, counting)])
      return { rows, total: Number(counted[0]?.total ?? Number.NaN) }
    },
    ours: async () => {
      if (scaleCase.withCount !== true) return { rows: (await builder()) as unknown as Row[] }
      const params = parseQueryParams(queryString)
      const page = await paginate<Row>(applyQueryParams(db(table), params, map), params)
      return page.meta.total === undefined ? { rows: page.data } : { rows: page.data, total: page.meta.total }
    },
    expert: async (form) => {
      if (count === undefined) return { rows: await runSql(database, form) }
      const [rows, counted] = await Promise.all([runSql(database, form), runSql(database, count)])
      return { rows, total: Number(counted[0]?.total ?? Number.NaN) }
    },
  }
}

/** Median of a few runs, to choose the fastest hand-written form. */
async function quickTime(operation: () => Promise<unknown>, runs: number): Promise<number> {
  await operation()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await operation()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] ?? Number.NaN
}

/**
 * Figure 6: common API requests on `posts` at scale (1M posts, 2M on PostgreSQL; the indexes of
 * `bench/scale/scale-dataset.ts`): the SQL the library builds against the fastest of the hand-written forms
 * an expert writes for that database, both sent as text (target ≤ 1.2), and, as context, the whole request
 * (parse + apply + run, or `paginate` for the counted page) against the same. Every form must return the
 * library's rows in the library's order (and the same total) before anything is timed.
 */
export async function commonQueriesAtScale(
  database: BenchDatabase,
  budget: Budget,
  log: (line: string) => void,
  figure: { title: string; cases: readonly ScaleCase[]; wholeRequest: boolean; formTimeoutMs?: number } = {
    title: FIGURE,
    cases: SCALE_CASES,
    wholeRequest: true,
  },
): Promise<{ results: BenchResult[]; explains: ExplainRecord[] }> {
  const { title } = figure
  const results: BenchResult[] = []
  const explains: ExplainRecord[] = []
  for (const scaleCase of figure.cases) {
    const side = await sides(database, scaleCase)
    const mine = await side.ours()
    const mineSql = await side.runOursSql()
    if (ids(mineSql.rows) !== ids(mine.rows) || mineSql.total !== mine.total)
      throw new Error(`${title} '${scaleCase.name}': the library's SQL run as text returns other rows than the library`)
    const forms = scaleCase.expert(database.dialect)
    const firstRuns: Array<{ form: ExpertForm; ms: number }> = []
    const stopped: string[] = []
    for (const form of forms) {
      const start = performance.now()
      let theirs: { rows: Row[]; total?: number }
      if (figure.formTimeoutMs === undefined || scaleCase.withCount === true) theirs = await side.expert(form)
      else {
        const rows = await runSqlWithin(database, form, figure.formTimeoutMs)
        if (rows === undefined) {
          stopped.push(form.name)
          continue
        }
        theirs = { rows }
      }
      firstRuns.push({ form, ms: performance.now() - start })
      if (ids(theirs.rows) !== ids(mine.rows) || theirs.total !== mine.total) {
        throw new Error(
          `${title} '${scaleCase.name}' on ${database.dialect}: the hand-written '${form.name}' returns other rows than the library (${ids(theirs.rows).slice(0, 80)} vs ${ids(mine.rows).slice(0, 80)}; total ${String(theirs.total)} vs ${String(mine.total)})`,
        )
      }
    }
    if (firstRuns.length === 0) {
      // Every form was stopped: run them to the end after all, so the case still has a baseline.
      for (const form of forms) {
        const start = performance.now()
        const theirs = await side.expert(form)
        if (ids(theirs.rows) !== ids(mine.rows))
          throw new Error(
            `${title} '${scaleCase.name}' on ${database.dialect}: the hand-written '${form.name}' returns other rows than the library`,
          )
        firstRuns.push({ form, ms: performance.now() - start })
      }
      stopped.length = 0
    }
    // Forms more than 3× slower than the fastest on their first run are not timed again.
    const fastestFirst = Math.min(...firstRuns.map(({ ms }) => ms))
    const timed: Array<{ form: ExpertForm; ms: number }> = []
    for (const { form, ms } of firstRuns) {
      timed.push({
        form,
        ms: forms.length === 1 || ms > 3 * fastestFirst ? ms : await quickTime(() => side.expert(form), 3),
      })
    }
    timed.sort((a, b) => a.ms - b.ms)
    const best = timed[0]?.form
    if (best === undefined) throw new Error(`${title} '${scaleCase.name}': no hand-written form`)
    const count = scaleCase.count?.(database.dialect)

    const record = async (form: string, query: BoundSql): Promise<void> => {
      explains.push({
        figure: title,
        dialect: database.dialect,
        name: scaleCase.name,
        form,
        sql: query.sql,
        plan: await explainSql(database, query.sql, query.bindings),
      })
    }
    if (side.probeSql !== undefined) await record('library (probe, first read of the value)', side.probeSql)
    for (const [index, query] of side.oursSql.entries())
      await record(index === 0 ? 'library' : 'library (count)', query)
    await record(`hand-written: ${best.name}`, best)
    if (count !== undefined) await record('hand-written (count)', count)

    // A query that takes seconds gets fewer samples: its ratio is clear long before the budget is spent.
    const slow = (await quickTime(side.runOursSql, 1)) > 500
    const sampling = slow ? { ...budget, minSamples: Math.min(budget.minSamples ?? 3, 3), timeMs: 0 } : budget
    const timing = await compare(side.runOursSql, () => side.expert(best), sampling)
    const others =
      timed.length === 1 && stopped.length === 0
        ? []
        : [
            ...timed.map(({ form, ms }) => `${form.name} ${ms.toFixed(1)} ms`),
            ...stopped.map((name) => `${name} stopped after ${String(figure.formTimeoutMs)} ms`),
          ]
    const queries = scaleCase.withCount === true ? 2 : 1
    results.push(
      result({
        figure: title,
        name: scaleCase.name,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured(
          scaleCase.withCount === true ? "the library's page + count SQL" : "the library's SQL",
          timing.ours,
          side.oursSql.length,
        ),
        baseline: measured(`hand-written ${best.name}`, timing.baseline, queries),
        ratio: timing.ratio,
        target: { op: '<=', value: 1.2 },
        note: `${best.why}${others.length > 0 ? ` (forms tried, median of 3 runs or one run when 3× slower: ${others.join(', ')})` : ''}`,
      }),
    )
    let firstNote = ''
    if (side.probeSql !== undefined) {
      const first = await compare(
        () => side.runOursSql(true),
        () => side.expert(best),
        sampling,
      )
      firstNote = `; first read of the value (probe + page): ${first.ours.median.toFixed(2)} ms ×${first.ratio.toFixed(3)}`
      results.push(
        result({
          figure: title,
          name: `${scaleCase.name} (first read of the value)`,
          dialect: database.dialect,
          unit: 'ms',
          ours: measured("the library's probe, then its SQL", first.ours, side.oursSql.length + 1),
          baseline: measured(`hand-written ${best.name}`, first.baseline, queries),
          ratio: first.ratio,
          note: "the statements of a guarded page's first read of a filter value (its form is then remembered for `frequencyMemoMs`); context for the row above",
        }),
      )
    }
    let pipelineNote = firstNote
    if (!slow && figure.wholeRequest) {
      const whole = await compare(side.ours, () => side.expert(best), budget)
      pipelineNote += `; with parse + apply: ×${whole.ratio.toFixed(3)}`
      results.push(
        result({
          figure: title,
          name: `${scaleCase.name} (whole request)`,
          dialect: database.dialect,
          unit: 'ms',
          ours: measured(
            scaleCase.withCount === true ? 'parse + apply + paginate' : 'parse + apply + run',
            whole.ours,
            side.oursSql.length,
          ),
          baseline: measured(`hand-written ${best.name}`, whole.baseline, queries),
          ratio: whole.ratio,
          note: 'context: the same, plus the cost of building the query per request (figure 1)',
        }),
      )
    }
    log(
      `  ${database.dialect} ${scaleCase.name}: ${timing.ours.median.toFixed(2)} ms vs ${timing.baseline.median.toFixed(2)} ms (${best.name}) ×${timing.ratio.toFixed(3)}${pipelineNote}${others.length > 0 ? `; forms tried: ${others.join(', ')}` : ''}`,
    )
  }
  return { results, explains }
}
