import { applyQueryParams, cursorPaginate, parseQueryParams } from '../lib/index.ts'
import type { BenchDatabase } from './data/ensure-dataset.ts'
import { cursorBenchMap } from './cursor/cursor-dataset.ts'
import { measured, result, type BenchResult } from './result.ts'
import { compare, measure, type Budget } from './timing.ts'

const FIGURE = '15. keyset pages at depth'
const SECRET = 'figure 15 signs its cursors with this 32+ byte secret'
const LIMIT = 20
/** The rows before the page. */
export const DEPTHS = [10, 10_000, 100_000, 1_000_000] as const

type Row = Record<string, unknown>
type Value = string | number | Date | null
interface Statement {
  sql: string
  bindings: Value[]
}

function rowsOf(database: BenchDatabase, raw: unknown): Row[] {
  if (database.dialect === 'postgres') return (raw as { rows: Row[] }).rows
  if (database.dialect === 'mysql') return (raw as [Row[]])[0]
  return raw as Row[]
}

const COLUMNS = 'p.id, p.user_id, p.title, p.published_at, p.created_at'

/**
 * One order of figure 15: the request, and the keyset SQL an expert writes for the page after the row whose values
 * are `at` (the row-value comparison on PostgreSQL and SQLite, the expanded form MariaDB reads as a range).
 */
interface CursorCase {
  name: string
  request: string
  /** The values of the row a page follows, read by the expert's own query (`offset depth - 1`). */
  position: (dialect: BenchDatabase['dialect']) => string
  expert: (dialect: BenchDatabase['dialect'], at: Row) => Statement[]
}

const rowValue = (
  dialect: BenchDatabase['dialect'],
  a: string,
  b: string,
  op: '<' | '>',
  x: Value,
  y: Value,
): Statement =>
  dialect === 'mysql'
    ? { sql: `${a} ${op}= ? and (${a} ${op} ? or ${a} = ? and ${b} ${op} ?)`, bindings: [x, x, x, y] }
    : { sql: `(${a}, ${b}) ${op} (?, ?)`, bindings: [x, y] }

const CASES: CursorCase[] = [
  {
    name: 'newest first',
    request: 'orders[0][column]=created_at&orders[0][direction]=desc',
    position: () => `select p.created_at as a, p.id as b from cur_posts p order by p.created_at desc, p.id desc`,
    expert: (dialect, at) => {
      const where = rowValue(dialect, 'p.created_at', 'p.id', '<', at.a as Value, at.b as Value)
      return [
        {
          sql: `select ${COLUMNS} from cur_posts p where ${where.sql} order by p.created_at desc, p.id desc limit ${LIMIT + 1}`,
          bindings: where.bindings,
        },
      ]
    },
  },
  {
    name: 'by a nullable column (published_at desc)',
    request: 'orders[0][column]=published_at&orders[0][direction]=desc',
    position: (dialect) =>
      `select p.published_at as a, p.id as b from cur_posts p order by p.published_at desc${dialect === 'postgres' ? ' nulls last' : ''}, p.id desc`,
    expert: (dialect, at) => {
      const nulls = (bindings: Value[], condition: string, limit: number): Statement => ({
        sql: `select ${COLUMNS} from cur_posts p where p.published_at is null${condition} order by p.published_at desc${dialect === 'postgres' ? ' nulls last' : ''}, p.id desc limit ${limit}`,
        bindings,
      })
      if (at.a === null) return [nulls([at.b as Value], ' and p.id < ?', LIMIT + 1)]
      const where = rowValue(dialect, 'p.published_at', 'p.id', '<', at.a as Value, at.b as Value)
      const order = `p.published_at desc${dialect === 'postgres' ? ' nulls last' : ''}, p.id desc`
      return [
        {
          sql: `select ${COLUMNS} from cur_posts p where ${where.sql} order by ${order} limit ${LIMIT + 1}`,
          bindings: where.bindings,
        },
        nulls([], '', LIMIT + 1),
      ]
    },
  },
  {
    name: 'by a belongsTo column (author.name)',
    request: 'orders[0][column]=author.name',
    position: () =>
      `select u.name as a, p.id as b from cur_posts p inner join cur_users u on u.id = p.user_id order by u.name asc, p.id asc`,
    expert: (dialect, at) => {
      const where = rowValue(dialect, 'u.name', 'p.id', '>', at.a as Value, at.b as Value)
      if (dialect === 'mysql') {
        // MariaDB sorts the whole join for an order by a joined column: the expert bounds the page by the name of its
        // last row, found by walking users (name) first (straight_join), and joins and sorts only the rows up to it.
        const bound =
          `(select u.name from cur_users u straight_join cur_posts p on p.user_id = u.id where ${where.sql} ` +
          `order by u.name limit 1 offset ${LIMIT})`
        return [
          {
            sql: `select ${COLUMNS} from cur_posts p inner join cur_users u on u.id = p.user_id where ${where.sql} and u.name <= coalesce(${bound}, (select max(name) from cur_users)) order by u.name asc, p.id asc limit ${LIMIT + 1}`,
            bindings: [...where.bindings, ...where.bindings],
          },
        ]
      }
      const lead = 'u.name >= ? and '
      return [
        {
          sql: `select ${COLUMNS} from cur_posts p inner join cur_users u on u.id = p.user_id where ${lead}${where.sql} order by u.name asc, p.id asc limit ${LIMIT + 1}`,
          bindings: [at.a as Value, ...where.bindings],
        },
      ]
    },
  },
  {
    name: 'by a count (commentsCount desc)',
    request: 'orders[0][column]=commentsCount&orders[0][direction]=desc',
    position: () =>
      `select coalesce(k.c, 0) as a, p.id as b from cur_posts p left join (select post_id, count(*) as c from cur_comments group by post_id) k on k.post_id = p.id order by coalesce(k.c, 0) desc, p.id desc`,
    expert: (dialect, at) => {
      const where = rowValue(dialect, 'coalesce(k.c, 0)', 'p.id', '<', at.a as Value, at.b as Value)
      return [
        {
          sql: `select ${COLUMNS} from cur_posts p left join (select post_id, count(*) as c from cur_comments group by post_id) k on k.post_id = p.id where ${where.sql} order by coalesce(k.c, 0) desc, p.id desc limit ${LIMIT + 1}`,
          bindings: where.bindings,
        },
      ]
    },
  },
]

/**
 * Figure 15: the page of 20 after row 10, 10,000, 100,000 and 1,000,000 of 1,000,100 posts, newest first, by a
 * nullable column, by a belongsTo column and by a count: the statements `cursorPaginate` sends, as text, against the
 * keyset SQL an expert writes (the page of 21 rows, so that it knows there is a next one;
 * the nullable order's NULL rows in a second statement when the first has too few), and `offset` (ours) as
 * context, with the whole request (parse, verify the cursor, apply, read). Target: within 1.2× of the expert at
 * every depth. `cells` picks some of them (`bench/cursor/rerun-cells.ts` measures a noisy cell again).
 */
export async function cursorPages(
  database: BenchDatabase,
  budget: Budget,
  slowBudget: Budget,
  log: (line: string) => void,
  cells: (order: string, depth: number) => boolean = () => true,
): Promise<BenchResult[]> {
  const { knex, dialect } = database
  const results: BenchResult[] = []
  const run = async (statement: Statement): Promise<Row[]> =>
    rowsOf(database, await knex.raw(statement.sql, statement.bindings))
  for (const scaleCase of CASES) {
    const slow = scaleCase.name.includes('count')
    for (const depth of DEPTHS) {
      if (!cells(scaleCase.name, depth)) continue
      const [at] = await run({ sql: `${scaleCase.position(dialect)} limit 1 offset ${depth - 1}`, bindings: [] })
      if (at === undefined) throw new Error(`${FIGURE}: no row at ${depth}`)
      const startParams = parseQueryParams(`${scaleCase.request}&limit=1&offset=${depth - 1}`)
      const start = await cursorPaginate(
        applyQueryParams(knex('cur_posts'), startParams, cursorBenchMap),
        startParams,
        { secret: SECRET },
      )
      const cursor = start.meta.next_cursor ?? ''
      const ours = async (): Promise<Row[]> => {
        const params = parseQueryParams(`${scaleCase.request}&limit=${LIMIT}&cursor=${cursor}`)
        return (
          await cursorPaginate(applyQueryParams(knex('cur_posts'), params, cursorBenchMap), params, { secret: SECRET })
        ).data
      }
      const expert = async (): Promise<Row[]> => {
        const rows: Row[] = []
        for (const statement of scaleCase.expert(dialect, at)) {
          if (rows.length > LIMIT) break
          rows.push(
            ...(await run({
              ...statement,
              sql: statement.sql.replace(`limit ${LIMIT + 1}`, `limit ${LIMIT + 1 - rows.length}`),
            })),
          )
        }
        return rows
      }
      const offset = async (): Promise<unknown> =>
        applyQueryParams(
          knex('cur_posts'),
          parseQueryParams(`${scaleCase.request}&limit=${LIMIT}&offset=${depth}`),
          cursorBenchMap,
        )
      const ids = (rows: readonly Row[]): string =>
        rows
          .slice(0, LIMIT)
          .map((row) => String(row.id))
          .join(',')
      const sent: Statement[] = []
      const listen = (query: { sql: string; bindings?: readonly unknown[] }): void => {
        sent.push({
          sql: dialect === 'postgres' ? query.sql.replace(/\$\d+/g, '?') : query.sql,
          bindings: (query.bindings ?? []) as Value[],
        })
      }
      knex.on('query', listen)
      const mine = await ours()
      knex.off('query', listen)
      const oursSql = async (): Promise<Row[]> => {
        const rows: Row[] = []
        for (const statement of sent) if (rows.length <= LIMIT) rows.push(...(await run(statement)))
        return rows
      }
      const theirs = await expert()
      if (ids(mine) !== ids(theirs) || mine.length !== LIMIT)
        throw new Error(
          `${FIGURE} ${scaleCase.name} at ${depth}: the library's page differs from the expert's (${ids(mine)} / ${ids(theirs)})`,
        )
      if (ids(await oursSql()) !== ids(theirs))
        throw new Error(
          `${FIGURE} ${scaleCase.name} at ${depth}: the library's statements, sent as text, read other rows`,
        )
      const timing = await compare(oursSql, expert, slow ? slowBudget : budget)
      const whole = await measure(ours, slow ? slowBudget : budget)
      const offsetTiming = await measure(offset, slowBudget)
      results.push(
        result({
          figure: FIGURE,
          name: `${scaleCase.name}, after row ${depth.toLocaleString('en-US')}`,
          dialect,
          unit: 'ms',
          ours: measured("the library's SQL (the page after the cursor)", timing.ours, sent.length),
          baseline: measured('hand-written keyset SQL', timing.baseline),
          ratio: timing.ratio,
          target: { op: '<=', value: 1.2 },
          note: `whole request (parse, verify, apply, page) ${whole.median.toFixed(2)} ms; offset (ours) ${offsetTiming.median.toFixed(2)} ms, ×${(offsetTiming.median / timing.baseline.median).toFixed(1)} the expert's keyset`,
        }),
      )
      log(
        `  ${dialect} ${scaleCase.name} after ${depth}: cursor SQL ${timing.ours.median.toFixed(2)} ms, expert ${timing.baseline.median.toFixed(2)} ms ×${timing.ratio.toFixed(3)}; whole request ${whole.median.toFixed(2)} ms; offset ${offsetTiming.median.toFixed(2)} ms`,
      )
    }
  }
  return results
}
