/**
 * Measurement behind BENCHMARKS.md, figure 6 (SQLite): the same statement with a bound `limit ?` and with
 * `limit 20` written into the SQL, on figure 6's SQLite data set (`bench/.cache/scale.sqlite`, built by
 * `npm run bench -- --only=6`). Prints the median of 300 per-round ratios bound ÷ literal (20 executions of
 * each per round, alternating).
 *
 *   npx tsx bench/bound-limit.ts
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

interface Statement {
  all(...bindings: unknown[]): unknown[]
}
type Database = new (file: string, options: { readonly: boolean }) => { prepare(sql: string): Statement }

// better-sqlite3 directly (it ships no types): knex's own work per query would hide the difference.
const Sqlite = createRequire(import.meta.url)('better-sqlite3') as Database
const db = new Sqlite(fileURLToPath(new URL('.cache/scale.sqlite', import.meta.url)), { readonly: true })
const COLUMNS = 'posts.id, posts.user_id, posts.title, posts.kind, posts.published_at, posts.views, posts.created_at'
const STATEMENTS: Record<string, string> = {
  'newest first': `select ${COLUMNS} from posts order by posts.created_at desc, posts.id desc limit ?`,
  'order by author.name': `select ${COLUMNS} from posts inner join users on users.id = posts.user_id order by users.name asc, posts.id asc limit ?`,
  'published_at desc': `select ${COLUMNS} from posts order by posts.published_at desc, posts.id desc limit ?`,
  'relationsExists comments': `select ${COLUMNS} from posts where exists (select 1 from comments where comments.post_id = posts.id) order by posts.created_at desc, posts.id desc limit ?`,
}

const elapsed = (run: () => void): number => {
  const start = process.hrtime.bigint()
  for (let i = 0; i < 20; i++) run()
  return Number(process.hrtime.bigint() - start)
}

for (const [name, sql] of Object.entries(STATEMENTS)) {
  const bound = db.prepare(sql)
  const literal = db.prepare(sql.replace('limit ?', 'limit 20'))
  const ratios: number[] = []
  for (let round = 0; round < 300; round++) {
    const a = elapsed(() => bound.all(20))
    const b = elapsed(() => literal.all())
    ratios.push(a / b)
  }
  ratios.sort((x, y) => x - y)
  console.log(`${name}: bound ÷ literal limit ×${(ratios[150] ?? Number.NaN).toFixed(3)}`)
}
