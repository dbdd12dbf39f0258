import type { Knex } from 'knex'
import qs from 'qs'
import { performance } from 'node:perf_hooks'
import { relationMap } from '../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../lib/index.ts'
import { PARSE_DEFAULTS } from '../lib/options.ts'
import { paramsOfRaw } from '../lib/parse/parse-query-params.ts'
import { parseQueryString } from '../lib/parse/parse-query-string.ts'
import { handDialects } from './baselines/hand-dialect.ts'
import { handManyWheresQuery, manyWheres, plainComparisons } from './baselines/many-wheres.ts'
import { handTypicalQuery, typicalRequest, typicalRequestRepeated } from './baselines/typical-request.ts'
import { RELEASE_BEFORE, releaseBefore } from './release-before.ts'
import { clientQueryString } from './client-query-string.ts'
import { measured, result, type BenchResult } from './result.ts'
import { sqlClients } from './sql-clients.ts'
import { compare, type Budget } from './timing.ts'

const FIGURE = '1. building cost'
const PIPELINE_TARGET = { op: '<=', value: 1.2 } as const
const APPLY_TARGET = { op: '<', value: 1 } as const

/** One request of figure 1: its query string as the client sends it, and the same query written by hand. */
export interface Case {
  name: string
  queryString: string
  hand: (db: Knex, dialect: 'sqlite' | 'postgres') => Knex.QueryBuilder
}

/** The requests of figure 1, in the order of its rows. */
export function cases(): Case[] {
  const typical: Case = {
    name: 'typical request',
    queryString: clientQueryString(typicalRequest),
    hand: (db, dialect) => handTypicalQuery(db, handDialects[dialect]),
  }
  const typicalFive: Case = {
    name: 'typical request, its wheres ×5 (20 wheres)',
    queryString: clientQueryString(typicalRequestRepeated(5)),
    hand: (db, dialect) => handTypicalQuery(db, handDialects[dialect], 5),
  }
  const plain = [1, 100].map((n): Case => {
    const { request, hand } = plainComparisons(n)
    return {
      name: `${n} plain comparison${n === 1 ? '' : 's'}`,
      queryString: clientQueryString(request),
      hand: (db, dialect) => handManyWheresQuery(db, handDialects[dialect], hand),
    }
  })
  const scaled = [1, 10, 50, 100].map((n): Case => {
    const { request, hand } = manyWheres(n)
    return {
      name: `${n} where${n === 1 ? '' : 's'}`,
      queryString: clientQueryString(request),
      hand: (db, dialect) => handManyWheresQuery(db, handDialects[dialect], hand),
    }
  })
  return [typical, typicalFive, ...plain, ...scaled]
}

/** Fails unless both builders compile to the same SQL and bindings: the comparison must be like for like. */
function assertSameSql(name: string, ours: Knex.QueryBuilder, hand: Knex.QueryBuilder): void {
  const a = ours.toSQL()
  const b = hand.toSQL()
  const same = a.sql === b.sql && JSON.stringify(a.bindings) === JSON.stringify(b.bindings)
  if (!same) {
    throw new Error(
      `building cost '${name}': the hand-written chain no longer compiles to the library's SQL\n  ours: ${a.sql}\n        ${JSON.stringify(a.bindings)}\n  hand: ${b.sql}\n        ${JSON.stringify(b.bindings)}`,
    )
  }
}

/** How many times a comparison's own warm-up the whole figure is warmed up before its first row. */
const WARM_UP_ROUNDS = 20

/** The operations figure 1 times, on every case and dialect: the library's, the release's and the hand-written. */
function figureOperations(before: Awaited<ReturnType<typeof releaseBefore>>): Array<() => unknown> {
  const operations: Array<() => unknown> = []
  for (const dialect of ['postgres', 'sqlite'] as const) {
    const db = sqlClients[dialect]
    for (const { queryString, hand } of cases()) {
      const params = parseQueryParams(queryString)
      operations.push(
        () => applyQueryParams(db('users'), parseQueryParams(queryString), relationMap).toSQL(),
        () => applyQueryParams(db('users'), params, relationMap).toSQL(),
        () => hand(db, dialect).toSQL(),
      )
      if (before === undefined) continue
      const mapBefore = before.relationMap as never
      const paramsBefore = before.parseQueryParams(queryString) as never
      operations.push(
        () => before.applyQueryParams(db('users'), before.parseQueryParams(queryString) as never, mapBefore).toSQL(),
        () => before.applyQueryParams(db('users'), paramsBefore, mapBefore).toSQL(),
      )
    }
  }
  return operations
}

/** Fewest turns of {@link warmUp}, however long they take: a thousand calls of each operation. */
const WARM_UP_TURNS = 100

/**
 * Runs `operations` round-robin, ten calls of each a turn, for `ms` milliseconds and at least {@link WARM_UP_TURNS}
 * turns (on a loaded machine `ms` alone could leave some operations barely called).
 */
function warmUp(operations: ReadonlyArray<() => unknown>, ms: number): void {
  const end = performance.now() + ms
  for (let turn = 0; turn < WARM_UP_TURNS || performance.now() < end; turn++)
    for (const operation of operations) for (let i = 0; i < 10; i++) operation()
}

/**
 * Figure 1: raw query string → SQL through the library (parse + apply + `toSQL()`), and from already-parsed
 * params (apply + `toSQL()`), against the same query written by hand as a knex chain + `toSQL()`; plus,
 * for context, the parser against `qs.parse`.
 */
export async function buildingCost(budget: Budget, log: (line: string) => void): Promise<BenchResult[]> {
  const results: BenchResult[] = []
  const before = await releaseBefore()
  if (before === undefined) log(`  release ${RELEASE_BEFORE} not found (no git history): its column is left out`)
  // Every operation of the figure (both sides, every case, both dialects, the release's) runs for a while before the
  // first is timed, so that no row is charged for compiling the code the rows after it share: V8 optimises a
  // function after many calls, on background threads whose CPU time this process counts. Both sides are warmed alike.
  const warmed = (budget.warmupMs ?? 300) * WARM_UP_ROUNDS
  log(`  warming every operation of the figure up for ${warmed} ms`)
  warmUp(figureOperations(before), warmed)
  for (const dialect of ['postgres', 'sqlite'] as const) {
    const db = sqlClients[dialect]
    for (const { name, queryString, hand } of cases()) {
      const params = parseQueryParams(queryString)
      assertSameSql(name, applyQueryParams(db('users'), params, relationMap), hand(db, dialect))
      const handChain = (): unknown => hand(db, dialect).toSQL()

      const pipeline = await compare(
        () => applyQueryParams(db('users'), parseQueryParams(queryString), relationMap).toSQL(),
        handChain,
        budget,
      )
      results.push(
        result({
          figure: FIGURE,
          name: `${name}: raw string → SQL`,
          dialect,
          unit: 'ms',
          ours: measured('parse + apply + toSQL', pipeline.ours),
          baseline: measured('hand-written knex chain + toSQL', pipeline.baseline),
          ratio: pipeline.ratio,
          target: PIPELINE_TARGET,
        }),
      )
      const apply = await compare(() => applyQueryParams(db('users'), params, relationMap).toSQL(), handChain, budget)
      results.push(
        result({
          figure: FIGURE,
          name: `${name}: parsed params → SQL`,
          dialect,
          unit: 'ms',
          ours: measured('apply + toSQL', apply.ours),
          baseline: measured('hand-written knex chain + toSQL', apply.baseline),
          ratio: apply.ratio,
          target: APPLY_TARGET,
        }),
      )
      log(`  ${dialect} ${name}: pipeline ×${pipeline.ratio.toFixed(2)}, apply ×${apply.ratio.toFixed(2)}`)
      if (before === undefined) continue
      const { parseQueryParams: parseBefore, applyQueryParams: applyBefore } = before
      const mapBefore = before.relationMap as never
      const paramsBefore = parseBefore(queryString) as never
      const then = await compare(
        () => applyBefore(db('users'), parseBefore(queryString) as never, mapBefore).toSQL(),
        handChain,
        budget,
      )
      const thenApply = await compare(
        () => applyBefore(db('users'), paramsBefore, mapBefore).toSQL(),
        handChain,
        budget,
      )
      for (const [stage, timing, label] of [
        ['raw string → SQL', then, 'parse + apply + toSQL'],
        ['parsed params → SQL', thenApply, 'apply + toSQL'],
      ] as const) {
        results.push(
          result({
            figure: FIGURE,
            name: `${name}: ${stage}, release ${RELEASE_BEFORE}`,
            dialect,
            unit: 'ms',
            ours: measured(`${label} (release ${RELEASE_BEFORE})`, timing.ours),
            baseline: measured('hand-written knex chain + toSQL', timing.baseline),
            ratio: timing.ratio,
          }),
        )
      }
      log(
        `  ${dialect} ${name}, release ${RELEASE_BEFORE}: pipeline ×${then.ratio.toFixed(2)}, apply ×${thenApply.ratio.toFixed(2)}`,
      )
    }
  }

  // Context (no target): where the time of the typical request goes, stage by stage, each as a fraction of
  // the whole hand-written chain (PostgreSQL SQL). The stages of the pipeline add up to its total.
  const typical = clientQueryString(typicalRequest)
  const pg = sqlClients.postgres
  const raw = parseQueryString(typical, PARSE_DEFAULTS.depth, PARSE_DEFAULTS.parameterLimit)
  const parsed = parseQueryParams(typical)
  const built = applyQueryParams(pg('users'), parsed, relationMap)
  const handTypical = (): unknown => handTypicalQuery(pg, handDialects.postgres).toSQL()
  const stages: Array<[string, () => unknown]> = [
    ['parseQueryParams of the query string (the fused reader, shape checks included)', () => parseQueryParams(typical)],
    [
      'applyQueryParams without toSQL: validation and building',
      () => void applyQueryParams(pg('users'), parsed, relationMap),
    ],
    ["toSQL of the library's builder", () => built.toSQL()],
    // The general reader, which the fused reader replaces on the client's form and every other input still takes.
    [
      'general reader: parseQueryString, the raw bracket object',
      () => parseQueryString(typical, PARSE_DEFAULTS.depth, PARSE_DEFAULTS.parameterLimit),
    ],
    ['general reader: the params of that raw object (shape checks)', () => paramsOfRaw(raw, PARSE_DEFAULTS)],
  ]
  for (const [stage, run] of stages) {
    const timing = await compare(run, handTypical, budget)
    results.push(
      result({
        figure: FIGURE,
        name: `typical request, stage: ${stage}`,
        dialect: 'postgres',
        unit: 'ms',
        ours: measured(stage, timing.ours),
        baseline: measured('hand-written knex chain + toSQL (whole)', timing.baseline),
        ratio: timing.ratio,
      }),
    )
    log(`  stage ${stage}: ×${timing.ratio.toFixed(3)} of the hand-written chain`)
  }

  // Context (no target): the parser alone against qs, on the typical request.
  const qsOptions = { strictNullHandling: true }
  const parse = await compare(
    () => parseQueryParams(typical),
    () => qs.parse(typical, qsOptions),
    budget,
  )
  results.push(
    result({
      figure: FIGURE,
      name: 'typical request: parseQueryParams vs qs.parse',
      dialect: 'none',
      unit: 'ms',
      ours: measured('parseQueryParams (parse + validate shape)', parse.ours),
      baseline: measured('qs.parse (strictNullHandling)', parse.baseline),
      ratio: parse.ratio,
    }),
  )
  const rawVsQs = await compare(
    () => parseQueryString(typical, PARSE_DEFAULTS.depth, PARSE_DEFAULTS.parameterLimit),
    () => qs.parse(typical, qsOptions),
    budget,
  )
  results.push(
    result({
      figure: FIGURE,
      name: 'typical request: raw bracket object vs qs.parse',
      dialect: 'none',
      unit: 'ms',
      ours: measured('parseQueryString (the raw object only)', rawVsQs.ours),
      baseline: measured('qs.parse (strictNullHandling)', rawVsQs.baseline),
      ratio: rawVsQs.ratio,
    }),
  )
  log(`  parser: ×${parse.ratio.toFixed(2)} of qs (raw object ×${rawVsQs.ratio.toFixed(2)})`)
  return results
}
