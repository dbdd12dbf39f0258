import { relationMap } from '../fixtures/relation-map.ts'
import { applyQueryParams, paginate, parseQueryParams, type Paginated } from '../lib/index.ts'
import { handDialects } from './baselines/hand-dialect.ts'
import { handPage } from './baselines/hand-pagination.ts'
import { clientQueryString } from './client-query-string.ts'
import { countQueries } from './count-queries.ts'
import type { BenchDatabase } from './data/ensure-dataset.ts'
import { measured, result, type BenchResult } from './result.ts'
import { compare, type Budget } from './timing.ts'

const FIGURE = '4. pagination with count'

interface PageCase {
  name: string
  request: Record<string, unknown>
  page: number
  limit: number
  titlePattern?: string
}

const CASES: readonly PageCase[] = [
  { name: 'page 500 of all users, 20 per page', request: { page: 500, limit: 20 }, page: 500, limit: 20 },
  {
    name: "page 3 of users with a post like '%rust%', 20 per page",
    request: {
      wheres: [{ column: 'posts.title', operator: 'like', value: '%rust%', boolean: 'and' }],
      page: 3,
      limit: 20,
    },
    page: 3,
    limit: 20,
    titlePattern: '%rust%',
  },
]

type Row = Record<string, unknown>

/**
 * Figure 4: `paginate(applyQueryParams(…), params)` — `{ data, meta }` with the total — on the large data
 * set, against the hand-written page query + `count(*)`, both sent together.
 */
export async function pagination(
  database: BenchDatabase,
  budget: Budget,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const db = database.knex
  const results: BenchResult[] = []
  for (const { name, request, page, limit, titlePattern } of CASES) {
    const queryString = clientQueryString(request)
    const ours = (): Promise<Paginated<Row>> => {
      const params = parseQueryParams(queryString)
      return paginate<Row>(applyQueryParams(db('users'), params, relationMap), params)
    }
    const hand = (): Promise<unknown> => handPage(db, handDialects[database.dialect], page, limit, titlePattern)
    const [mine, theirs] = [await ours(), (await hand()) as Awaited<ReturnType<typeof handPage>>]
    const ids = (rows: Row[]): string => rows.map((row) => String(row.id)).join(',')
    if (ids(mine.data) !== ids(theirs.data) || mine.meta.total !== theirs.meta.total) {
      throw new Error(
        `pagination '${name}': the library and the hand-written queries disagree (total ${mine.meta.total ?? 'none'} vs ${theirs.meta.total})`,
      )
    }
    const queries = { ours: await countQueries(db, ours), hand: await countQueries(db, hand) }
    const timing = await compare(ours, hand, budget)
    log(`  ${database.dialect} ${name}: ×${timing.ratio.toFixed(3)} (total ${theirs.meta.total})`)
    results.push(
      result({
        figure: FIGURE,
        name,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured('parse + apply + paginate ({ data, meta })', timing.ours, queries.ours),
        baseline: measured('hand-written page query + count(*)', timing.baseline, queries.hand),
        ratio: timing.ratio,
        note: `total ${theirs.meta.total}`,
      }),
    )
  }
  return results
}
