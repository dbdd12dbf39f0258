import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import knex, { type Knex } from 'knex'
import { migrate } from '../../fixtures/migrate.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { seed } from '../../fixtures/seed.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { explainOnDatabase } from '../../lib/cli/explain-on-database.ts'
import { runCli } from '../../lib/cli/run-cli.ts'
import { UsageError } from '../../lib/cli/cli-io.ts'
import { readOnlyConfig } from '../../lib/cli/knex-config-for.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { testDatabases } from '../support/databases.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const MAP = 'fixtures/relation-map.ts'

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `knex-query-params <args>` (lib/cli/main.ts through tsx) in the repository root. */
function cli(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'lib/cli/main.ts', ...args],
      { cwd: root, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
      },
    )
  })
}

const nativeSql = (client: string, table: string, query: string): { sql: string; bindings: readonly unknown[] } => {
  const db = knex(client === 'better-sqlite3' ? { client, useNullAsDefault: true } : { client })
  return applyQueryParams(db(table), parseQueryParams(query), relationMap).toSQL().toNative()
}

describe('knex-query-params explain (the CLI)', function () {
  this.timeout(60_000)
  let dir: string
  let file: string

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kqp-cli-'))
    file = join(dir, 'demo.sqlite')
    const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
    await migrate(db)
    await seed(db)
    await db.destroy()
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('prints the parsed params and the exact SQL and bindings of every dialect', async () => {
    const run = await cli(
      'explain',
      '/users?columns[0]=id&columns[1]=name&wheres[0][column]=name&wheres[0][value]=Alice',
      '--map',
      MAP,
    )
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    const lines = run.stdout.split('\n')
    expect(lines).to.include('Table:   users')
    expect(run.stdout).to.include('"column": "name"')
    const pg = lines.indexOf('PostgreSQL:')
    const mysql = lines.indexOf('MySQL / MariaDB:')
    const sqlite = lines.indexOf('SQLite:')
    expect(pg).to.be.above(0)
    expect(lines.slice(pg + 1, pg + 3)).to.deep.equal([
      '  SQL:      select "users"."id", "users"."name" from "users" where ("users"."name" = $1)',
      '  Bindings: ["Alice"]',
    ])
    expect(lines.slice(mysql + 1, mysql + 3)).to.deep.equal([
      '  SQL:      select `users`.`id`, `users`.`name` from `users` where (`users`.`name` = ?)',
      '  Bindings: ["Alice"]',
    ])
    expect(lines.slice(sqlite + 1, sqlite + 3)).to.deep.equal([
      '  SQL:      select `users`.`id`, `users`.`name` from `users` where (`users`.`name` = ?)',
      '  Bindings: ["Alice"]',
    ])
  })

  it('prints what the library builds for a relation filter, pagination and with, and which with queries would run', async () => {
    const query =
      'wheres[0][column]=posts.title&wheres[0][operator]=like&wheres[0][value]=%25sql%25&with[0]=posts.tags&orders[0][column]=id&orders[0][direction]=desc&limit=2&page=2'
    const run = await cli('explain', `https://api.example.com/v1/users?${query}`, '--map', MAP, '--client', 'pg')
    expect(run.code).to.equal(0)
    const expected = nativeSql('pg', 'users', query)
    expect(run.stdout).to.include(`  SQL:      ${expected.sql}\n  Bindings: ${JSON.stringify(expected.bindings)}\n`)
    expect(run.stdout).to.not.include('SQLite:')
    expect(run.stdout).to.include('  posts (hasMany): from posts where posts.user_id in (users.id of the rows)\n')
    expect(run.stdout).to.include(
      '    tags (belongsToMany): from tags join post_tag on post_tag.tag_id = tags.id where post_tag.post_id in (posts.id of the rows)\n',
    )
  })

  it('prints the aggregates: in the SQL, listed, and those of loaded rows under their relation', async () => {
    const query =
      'with[0]=postsCount&with[1]=postsViewsSum&with[2]=posts.commentsCount&orders[0][column]=postsCount&orders[0][direction]=desc&limit=5'
    const run = await cli('explain', `/users?${query}`, '--map', MAP, '--client', 'pg')
    expect(run.code).to.equal(0)
    const expected = nativeSql('pg', 'users', query)
    expect(expected.sql)
      .to.include('as "posts_count"')
      .and.to.include('left join (select "posts"."user_id" as "kqp_key", count(*) as "kqp_value"')
    expect(run.stdout).to.include(`  SQL:      ${expected.sql}\n`)
    expect(run.stdout).to.include(
      'Aggregates (with): in the select list as correlated subqueries (above); an order by one joins it grouped:\n  posts_count (count of posts)\n  posts_views_sum (sum of posts.views)\n',
    )
    expect(run.stdout).to.include(
      '  posts (hasMany): from posts where posts.user_id in (users.id of the rows)\n    comments_count (count of comments): one query on posts for the keys of the loaded rows\n',
    )
  })

  it('with --db on a SQLite file: the SQL, the queries that really ran, the rows and EXPLAIN, leaving the file untouched', async () => {
    const hash = createHash('sha256').update(readFileSync(file)).digest('hex')
    const modified = statSync(file).mtimeMs
    const run = await cli(
      'explain',
      '/users?columns[0]=id&columns[1]=name&with[0]=posts&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=2&orders[0][column]=id&limit=1',
      '--map',
      MAP,
      '--db',
      file,
    )
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    expect(run.stdout).to.include('SQLite:\n')
    expect(run.stdout).to.not.include('PostgreSQL:')
    expect(run.stdout).to.include('Queries that ran (2, ')
    expect(run.stdout).to.match(
      / {2}2\. select `posts`\.`id`.* from `posts` where `posts`\.`user_id` in \(\?\) order by `posts`\.`id` asc limit \?\n {5}Bindings: \[1,10001\]\n/,
    )
    expect(run.stdout).to.include('Rows (1):\n  {"id":1,"name":"Alice","posts":[{"id":1,')
    expect(run.stdout).to.match(/Query plan \(EXPLAIN of the main query\):\n {2}SEARCH users USING INTEGER PRIMARY KEY/)
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).to.equal(hash)
    expect(statSync(file).mtimeMs).to.equal(modified)
  })

  it('rejects a bad request with exit code 1 and the QueryParamsError on stderr', async () => {
    const run = await cli('explain', '/users?wheres[0][column]=password&wheres[0][value]=x', '--map', MAP)
    expect(run.code).to.equal(1)
    expect(run.stdout).to.not.include('SQL:')
    expect(run.stderr).to.include(
      "400 unknown_column (wheres[0][column]): Parameter 'wheres[0][column]': 'password' is not a column of users that can be used here.",
    )
    const syntax = await cli('explain', 'limit=100000000000000000000000', '--table', 'posts', '--map', MAP)
    expect(syntax.code).to.equal(1)
    expect(syntax.stderr).to.include("400 invalid_number (limit): Parameter 'limit' is a number too large to represent")
  })

  it('loads a .mjs map, reads the table from --table, and exits 2 with a message (no stack) on usage errors', async () => {
    const map = join(dir, 'map.mjs')
    writeFileSync(map, "export const relationMap = { notes: { columns: { id: 'integer', body: 'string' } } }\n")
    const run = await cli('explain', 'columns[0]=body&limit=3', '--table', 'notes', '--map', map, '--client', 'sqlite')
    expect(run.stderr).to.equal('')
    expect(run.stdout).to.include(
      '  SQL:      select `notes`.`body` from `notes` order by `notes`.`id` asc limit 3\n  Bindings: []\n',
    )

    const usage: Array<[string[], string]> = [
      [['explain', '/users?limit=1'], 'Missing --map <file>'],
      [['explain', '--map', MAP], 'Missing the request to explain'],
      [['explain', 'limit=1', '--map', MAP], "No table in 'limit=1'"],
      [['explain', '/nope?limit=1', '--map', MAP], "Table 'nope' is not in the relation map"],
      [['explain', '/users', '--map', MAP, '--client', 'oracle'], "Unknown --client 'oracle'"],
      [['explain', '/users', '--map', join(dir, 'missing.mjs')], 'Cannot load the relation map'],
      [['explain', '/users', '--map', MAP, '--db', join(dir, 'missing.sqlite')], 'Cannot open the database'],
      [['explain', '/users', '--map', MAP, '--db', 'redis://localhost'], "Unknown database URL 'redis://localhost'"],
      [['frobnicate'], "Unknown command 'frobnicate'"],
      [['explain', '/users', '--map', MAP, '--nope'], "Unknown option '--nope'"],
    ]
    for (const [args, message] of usage) {
      const out: string[] = []
      const err: string[] = []
      const code = await runCli(args, { out: (text) => out.push(text), err: (text) => err.push(text) }, root)
      expect(code, args.join(' ')).to.equal(2)
      expect(err.join('\n'), args.join(' ')).to.include(`knex-query-params: ${message}`)
    }
    const spawned = await cli('explain', '/users', '--map', join(dir, 'missing.mjs'))
    expect(spawned.code).to.equal(2)
    expect(spawned.stdout).to.equal('')
    expect(spawned.stderr).to.match(/^knex-query-params: Cannot load the relation map .*missing\.mjs: /)
    expect(spawned.stderr).to.not.match(/\n\s+at /)
  })

  it('--help prints the usage and exits 0', async () => {
    const run = await cli('--help')
    expect(run.code).to.equal(0)
    expect(run.stdout).to.match(/^Usage: knex-query-params explain/)
  })
})

describe('knex-query-params explain --db: read-only, the queries that ran', () => {
  it('opens a SQLite file read-only: a write fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kqp-cli-ro-'))
    const file = join(dir, 'ro.sqlite')
    const writer = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
    await writer.schema.createTable('notes', (table) => table.increments('id'))
    await writer.destroy()
    const reader = knex(readOnlyConfig(`sqlite:${file}`))
    try {
      expect(await reader('notes').count({ n: '*' })).to.deep.equal([{ n: 0 }])
      let failure: unknown
      await reader('notes')
        .insert({ id: 1 })
        .catch((error: unknown) => (failure = error))
      expect(String(failure)).to.include('readonly database')
    } finally {
      await reader.destroy()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  for (const db of testDatabases()) {
    describe(db.label, () => {
      const run = async (map: RelationMap, query: string): Promise<{ out: string; error: unknown }> => {
        const out: string[] = []
        let error: unknown
        await explainOnDatabase(db.knex, 'users', parseQueryParams(query), map, {
          out: (text) => out.push(text),
          err: () => undefined,
        }).catch((thrown: unknown) => (error = thrown))
        return { out: out.join('\n'), error }
      }

      it('prints the queries that ran, main then with, the rows and a plan', async () => {
        const { out, error } = await run(
          relationMap,
          'columns[0]=id&columns[1]=name&with[0]=team&wheres[0][column]=id&wheres[0][value]=1',
        )
        expect(error).to.equal(undefined)
        expect(out).to.include('Queries that ran (2, ', out)
        expect(out, out).to.match(
          /\n {2}1\. select .*users.*\n {5}Bindings: \[1\]\n {2}2\. select .*teams.* in \((\?|\$1)\).* limit (\?|\$2)\n {5}Bindings: \[2,10001\]/,
        )
        expect(out).to.include('Rows (1):\n  {"id":1,"name":"Alice","team":{"id":2,"name":"Platform"')
        expect(out).to.match(/Query plan \(EXPLAIN of the main query\):\n {2}\S/)
      })

      it('a frequency-guarded page: prints its one statement, then the probe and the page that ran, and explains that page', async () => {
        const { out, error } = await run(
          relationMap,
          'columns[0]=id&columns[1]=name&wheres[0][column]=team.owner.email&wheres[0][value]=alice@EXAMPLE.com&orders[0][column]=name&limit=2',
        )
        expect(error).to.equal(undefined)
        expect(out, out).to.match(
          / {2}SQL: {6}select .*union all.*\n {2}Bindings: .*\n {2}\(a frequency-guarded page: this one statement holds both forms/,
        )
        expect(out, out).to.match(
          /Queries that ran \(2: the probe of the guarded page, then the page in its listing form, then those that load 'with'\):\n {2}1\. select \(select 1 from .*teams.* limit 1 offset (999|4999)\) as kqp_frequent\n {5}Bindings: \["alice@EXAMPLE.com"\]\n {2}2\. select (?!.*union all).*users.*\n/,
        )
        expect(out).to.match(/Rows \(2\):\n {2}\{"id":\d+,"name":"\w+"\}\n/)
        expect(out).to.match(/Query plan \(EXPLAIN of the page query that ran\):\n {2}\S/)
      })

      if (db.name === 'postgres') {
        it('runs in a READ ONLY transaction: a scope that writes (nextval) is refused', async () => {
          const users = relationMap.users
          const map = {
            ...relationMap,
            users: {
              ...users,
              scopes: {
                ...users.scopes,
                bump: (query: Knex.QueryBuilder) => query.whereRaw("nextval('users_id_seq') > 0"),
              },
            },
          } as RelationMap
          const { error } = await run(map, 'scopes[0]=bump')
          expect(error).to.be.instanceOf(UsageError)
          expect((error as Error).message).to.match(/^The database rejected the query: .*read-only transaction/)
          expect(
            await db.knex
              .raw('select last_value from users_id_seq')
              .then((result: { rows: Array<{ last_value: string | number }> }) => Number(result.rows[0]?.last_value)),
          ).to.be.below(100)
        })
      }
    })
  }
})
