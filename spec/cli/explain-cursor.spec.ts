import { expect } from 'chai'
import knex from 'knex'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { demoData } from '../../fixtures/data.ts'
import { migrate } from '../../fixtures/migrate.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { seed } from '../../fixtures/seed.ts'
import { explainOnDatabase } from '../../lib/cli/explain-on-database.ts'
import { encodeCursor } from '../../lib/cursor/cursor-token.ts'
import { applyQueryParams, cursorPaginate, parseQueryParams } from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'
import { createCursorDataSet, cursorMap, dropCursorDataSet } from '../cursor/support/cursor-data-set.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'lib/cli/main.ts', ...args],
      { cwd: root, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 3, stdout, stderr })
      },
    )
  })
}

describe('knex-query-params explain with a cursor', function () {
  this.timeout(60_000)

  it("shows the cursor's decoded position and the page's seek condition, per database", async () => {
    const cursor = encodeCursor(
      { binding: 'b', direction: 'next', values: ['2024-01-02 03:04:05.123456+00', '42'], issuedAt: 1_700_000_000 },
      Buffer.from('a secret the explain command never sees'),
    )
    const run = await cli(
      'explain',
      `/posts?orders[0][column]=created_at&orders[0][direction]=desc&limit=2&cursor=${cursor}`,
      '--map',
      'fixtures/relation-map.ts',
      '--client',
      'pg',
    )
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    expect(run.stdout).to.include(
      '  Cursor:   the rows after ["2024-01-02 03:04:05.123456+00","42"], issued 2023-11-14T22:13:20.000Z (signature not checked: explain has no secret)',
    )
    expect(run.stdout).to.include(
      'where ("posts"."created_at", "posts"."id") < ($1, $2) order by "posts"."created_at" desc, "posts"."id" desc limit $3',
    )
    expect(run.stdout).to.include('    Bindings: ["2024-01-02 03:04:05.123456+00","42",3]')
  })

  it('a garbled cursor is the 400 it would be on the server (exit 1)', async () => {
    const run = await cli('explain', '/posts?cursor=abc.def', '--map', 'fixtures/relation-map.ts', '--client', 'pg')
    expect(run.code).to.equal(1)
    expect(run.stderr).to.include('400 invalid_cursor (cursor)')
  })
})

const SECRET = 'a secret the explain command never sees, long enough'

/** The rows `explain --db` printed, as objects. */
const printedRows = (out: string): Array<Record<string, unknown>> => {
  const rows = /\nRows \(\d+[^)]*\):\n((?: {2}\{.*\}\n)*)/.exec(out)
  if (rows === null) throw new Error(`no rows in:\n${out}`)
  return (rows[1] ?? '')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('knex-query-params explain --db with a cursor: runs the page cursorPaginate reads', function () {
  this.timeout(60_000)

  it('on a SQLite file through the CLI: the rows after the position, the seek statement that ran, its plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kqp-cli-cursor-'))
    const file = join(dir, 'demo.sqlite')
    const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
    try {
      await migrate(db)
      await seed(db)
      const request = 'orders[0][column]=id&orders[0][direction]=desc&limit=3'
      const params = parseQueryParams(request)
      const first = await cursorPaginate(applyQueryParams(db('posts'), params, relationMap), params, { secret: SECRET })
      const next = first.meta.next_cursor ?? ''
      const second = await cursorPaginate(
        applyQueryParams(db('posts'), { ...params, cursor: next }, relationMap),
        { ...params, cursor: next },
        { secret: SECRET },
      )
      await db.destroy()
      const run = await cli(
        'explain',
        `/posts?${request}&cursor=${next}`,
        '--map',
        'fixtures/relation-map.ts',
        '--db',
        file,
      )
      expect(run.stderr).to.equal('')
      expect(run.code).to.equal(0)
      const ids = demoData.posts.map((post) => post.id).sort((a, b) => b - a)
      expect(run.stdout).to.match(/ {2}Cursor: {3}the rows after \["\w*\d+"\], issued /)
      expect(run.stdout).to.match(
        /Queries that ran \(1: the page, reading 4 rows for a page of 3, then those that load 'with'\):\n {2}1\. select (?:(?!kqp_cursor).)*`posts`\.`id`(?:(?!kqp_cursor).)* from `posts` where `posts`\.`id` < \? order by `posts`\.`id` desc limit 4\n {5}Bindings: \[(\d+)\]\n/,
      )
      expect(run.stdout).to.include(`Bindings: [${ids[2]}]\nRows`)
      expect(printedRows(run.stdout).map((row) => row['id'])).to.deep.equal(ids.slice(3, 6))
      expect(printedRows(run.stdout)).to.deep.equal(JSON.parse(JSON.stringify(second.data)))
      expect(run.stdout).to.include('Rows (3, and more beyond them):')
      expect(run.stdout).to.match(
        /Query plan \(EXPLAIN of the page query\):\n {2}SEARCH posts USING INTEGER PRIMARY KEY/,
      )
    } finally {
      await db.destroy()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  for (const db of testDatabases()) {
    describe(db.label, () => {
      before(async () => {
        await createCursorDataSet(db.knex)
      })
      after(async () => {
        await dropCursorDataSet(db.knex)
      })

      const explain = async (request: string): Promise<string> => {
        const out: string[] = []
        await explainOnDatabase(db.knex, 'cur_items', parseQueryParams(request), cursorMap, {
          out: (text) => out.push(text),
          err: () => undefined,
        })
        return out.join('\n')
      }

      it('every page of a walk by a nullable column, forward and back: the rows cursorPaginate returns', async () => {
        const request = 'orders[0][column]=title&orders[0][direction]=desc&with[0]=group&limit=20'
        const pageAt = (cursor?: string) => {
          const params = { ...parseQueryParams(request), ...(cursor === undefined ? {} : { cursor }) }
          return cursorPaginate(applyQueryParams(db.knex('cur_items'), params, cursorMap), params, { secret: SECRET })
        }
        let page = await pageAt()
        let twoParts = 0
        const walk = async (cursor: string | null): Promise<void> => {
          if (cursor === null) return
          const out = await explain(`${request}&cursor=${cursor}`)
          page = await pageAt(cursor)
          expect(printedRows(out), out).to.deep.equal(page.data)
          expect(out).to.match(/\nQuery plan \(EXPLAIN of the page query(, part 1 of 2)?\):\n {2}\S/)
          if (out.includes('part 2 of 2):')) twoParts++
        }
        let pages = 1
        while (page.meta.next_cursor !== null && pages++ < 20) await walk(page.meta.next_cursor)
        expect(pages).to.equal(5)
        while (page.meta.prev_cursor !== null && pages-- > 0) await walk(page.meta.prev_cursor)
        expect(twoParts).to.be.above(0)
      })

      it('a forged position (three values for an order of two) is the 400 invalid_cursor the server answers', async () => {
        const forged = encodeCursor(
          { binding: 'b', direction: 'next', values: ['1', '2', '3'], issuedAt: 1_700_000_000 },
          Buffer.from(SECRET),
        )
        const error = await explain(`orders[0][column]=title&cursor=${forged}`).then(
          () => undefined,
          (thrown: unknown) => thrown,
        )
        expect(error).to.include({ code: 'invalid_cursor', param: 'cursor', status: 400 })
      })
    })
  }
})
