import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import knex from 'knex'
import { EXIT, runCli } from '../../lib/cli/run-cli.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

interface Result {
  code: number
  out: string[]
  err: string[]
}

const GUARDED_MAP = `export default {
  products: {
    columns: { id: 'integer', name: 'string' },
    guard: (query, { table, context }) => { query.where(\`\${table}.tenant_id\`, context.tenantId) },
  },
}
`

describe('knex-query-params: every failure is one line on stderr with a documented exit code', function () {
  this.timeout(60_000)
  let dir: string

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kqp-cli-failures-'))
    writeFileSync(join(dir, 'guarded.mjs'), GUARDED_MAP)
    writeFileSync(join(dir, 'context.mjs'), 'export const context = { tenantId: 7 }\n')
    writeFileSync(join(dir, 'context-fn.mjs'), 'export default async () => ({ tenantId: 8 })\n')
    const define = new URL('../../lib/map/define-relation-map.ts', import.meta.url).href
    writeFileSync(
      join(dir, 'bad-map.mjs'),
      `import { defineRelationMap } from '${define}'\nexport default defineRelationMap({ users: { columns: { id: 'integr' } } })\n`,
    )
    writeFileSync(
      join(dir, 'bad-plain-map.mjs'),
      "export const relationMap = { users: { columns: { id: 'integer' }, relations: { posts: { type: 'hasMany', table: 'posts' } } } }\n",
    )
    writeFileSync(join(dir, 'syntax.mjs'), 'export default {\n  users: { columns: { id: "integer" }\n')
    writeFileSync(
      join(dir, 'scope-throws.mjs'),
      "export default { users: { columns: { id: 'integer' }, scopes: { boom: () => { throw new Error('boom\\nsecond line') } } } }\n",
    )
    // oracledb: knex names the same package for it in every 3.x (for mssql: 'mssql' before 3.3.0, 'tedious' since).
    writeFileSync(
      join(dir, 'knexfile.mjs'),
      "export default { client: 'oracledb', connection: { user: 'app', connectString: '127.0.0.1/app' } }\n",
    )
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  const run = async (...argv: string[]): Promise<Result> => {
    const out: string[] = []
    const err: string[] = []
    const code = await runCli(argv, { out: (text) => out.push(text), err: (text) => err.push(text) }, dir)
    return { code, out, err }
  }

  /** Asserts one line on stderr, `knex-query-params: <message>`, and the exit code. */
  const expectFailure = (result: Result, code: number, message: string | RegExp): void => {
    expect(result.err, result.err.join('\n')).to.have.length(1)
    const line = result.err[0] ?? ''
    expect(line).not.to.include('\n')
    expect(line).not.to.match(/\bat .*:\d+:\d+/)
    if (typeof message === 'string') expect(line).to.equal(`knex-query-params: ${message}`)
    else expect(line).to.match(message)
    expect(result.code).to.equal(code)
  }

  it('documents the exit codes', () => {
    expect(EXIT).to.deep.equal({ ok: 0, rejected: 1, usage: 2, failed: 3 })
  })

  it('bad arguments: exit 2', async () => {
    expectFailure(
      await run('explain', '/users', '--map', 'x.mjs', '--nope'),
      2,
      /^knex-query-params: Unknown option '--nope'.* Run 'knex-query-params --help' for usage\.$/,
    )
    expectFailure(
      await run('introspect', '--connection', 'a.db', '--naming', 'kebab'),
      2,
      "Unknown --naming 'kebab'; expected one of camel, snake, as-is. Run 'knex-query-params --help' for usage.",
    )
    expectFailure(
      await run('explain', '/users', '--map', 'guarded.mjs', '--context', '{tenantId:1}'),
      2,
      /^knex-query-params: --context is not JSON \(.*\); write it as --context '\{"tenantId":1\}'\.$/,
    )
  })

  it('a bad map module: exit 2, naming the module and the map path', async () => {
    expectFailure(
      await run('explain', '/users', '--map', 'bad-map.mjs'),
      2,
      /^knex-query-params: Cannot load the relation map bad-map\.mjs: knex-query-params: users\.columns\.id: 'integr' is not a column type/,
    )
    expectFailure(
      await run('explain', '/users', '--map', 'bad-plain-map.mjs', '--client', 'pg'),
      2,
      "The relation map of bad-plain-map.mjs is not valid: users.relations.posts.table: table 'posts' is not in the relation map; add it with its columns, or fix the name",
    )
    expectFailure(
      await run('explain', '/users', '--map', 'syntax.mjs'),
      2,
      /^knex-query-params: Cannot load the relation map syntax\.mjs: /,
    )
    expectFailure(
      await run('explain', '/users', '--map', 'missing.mjs'),
      2,
      /^knex-query-params: Cannot load the relation map missing\.mjs: Cannot find module /,
    )
  })

  it('a missing driver: exit 2, naming the package to install', async () => {
    expectFailure(
      await run('introspect', '--knexfile', 'knexfile.mjs'),
      2,
      "The database driver 'oracledb' is not installed: npm install oracledb",
    )
  })

  it('an unreachable database: exit 2, without the password', async () => {
    const result = await run(
      'explain',
      '/products',
      '--map',
      'guarded.mjs',
      '--context',
      '{"tenantId":1}',
      '--db',
      'postgres://someone:secret@127.0.0.1:1/none',
    )
    expectFailure(
      result,
      2,
      /^knex-query-params: Cannot open the database postgres:\/\/…@127\.0\.0\.1:1\/none: .*ECONNREFUSED/,
    )
    expect(result.err[0]).not.to.include('secret')
    expectFailure(
      await run('introspect', '--connection', 'mysql://root@127.0.0.1:1/none'),
      2,
      /^knex-query-params: Cannot open the database mysql:\/\/…@127\.0\.0\.1:1\/none: .*ECONNREFUSED/,
    )
  })

  it('a guard that reads a context, without one: exit 2, saying how to pass it', async () => {
    expectFailure(
      await run('explain', '/products?limit=2', '--map', 'guarded.mjs', '--client', 'pg'),
      2,
      `products.guard threw without a context (Cannot read properties of undefined (reading 'tenantId')): the map's guards read one; pass it with --context '{"tenantId":1}' or --context-module <file> (exporting it as default or 'context').`,
    )
  })

  it('a rejected request: exit 1, one line per request', async () => {
    const result = await run(
      'explain',
      '/products?columns[0]=secret',
      '/products?limit=0',
      '--map',
      'guarded.mjs',
      '--context',
      '{"tenantId":1}',
      '--client',
      'pg',
    )
    expect(result.code).to.equal(1)
    expect(result.err).to.deep.equal([
      "knex-query-params: /products?columns[0]=secret: 400 unknown_column (columns[0]): Parameter 'columns[0]': 'secret' is not a column of products that can be used here.",
      "knex-query-params: /products?limit=0: 400 invalid_number (limit): Parameter 'limit' must be a whole number of at least 1.",
    ])
  })

  it('an unexpected error (a scope that throws): exit 3, one line', async () => {
    expectFailure(
      await run('explain', '/users?scopes[0]=boom', '--map', 'scope-throws.mjs', '--client', 'sqlite'),
      3,
      'boom second line',
    )
  })

  it('as a process: one line on stderr, no stack, the exit code', async () => {
    const spawned = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'lib/cli/main.ts', 'introspect', '--knexfile', join(dir, 'knexfile.mjs')],
        { cwd: root, encoding: 'utf8' },
        (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
        },
      )
    })
    expect(spawned).to.deep.equal({
      code: 2,
      stdout: '',
      stderr: "knex-query-params: The database driver 'oracledb' is not installed: npm install oracledb\n",
    })
  })
})

describe('knex-query-params explain --context: the guarded SQL', function () {
  this.timeout(60_000)
  let dir: string

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kqp-cli-context-'))
    writeFileSync(join(dir, 'guarded.mjs'), GUARDED_MAP)
    writeFileSync(join(dir, 'context.mjs'), 'export const context = { tenantId: 7 }\n')
    writeFileSync(join(dir, 'context-fn.mjs'), 'export default async () => ({ tenantId: 8, role: "admin" })\n')
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  const sqlOf = async (...argv: string[]): Promise<string[]> => {
    const out: string[] = []
    const err: string[] = []
    const code = await runCli(
      ['explain', '/products?columns[0]=name&limit=2', '--map', 'guarded.mjs', '--client', 'pg', ...argv],
      { out: (text) => out.push(text), err: (text) => err.push(text) },
      dir,
    )
    expect([code, err]).to.deep.equal([0, []])
    return out.filter((line) => line.startsWith('  SQL:') || line.startsWith('  Bindings:'))
  }
  const guarded = (tenant: number): string[] => [
    '  SQL:      select "products"."name" from "products" where ("products"."tenant_id" = $1) order by "products"."id" asc limit $2',
    `  Bindings: [${tenant},2]`,
  ]

  it('from JSON', async () => {
    expect(await sqlOf('--context', '{"tenantId":5}')).to.deep.equal(guarded(5))
  })

  it("from a module's 'context' export, or its default export function (awaited)", async () => {
    expect(await sqlOf('--context-module', 'context.mjs')).to.deep.equal(guarded(7))
    expect(await sqlOf('--context-module', 'context-fn.mjs')).to.deep.equal(guarded(8))
  })

  it("with --db: the guarded query runs on the database, and only the tenant's rows come back", async () => {
    const file = join(dir, 'shop.sqlite')
    const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
    await db.schema.createTable('products', (table) => {
      table.increments('id')
      table.integer('tenant_id')
      table.string('name')
    })
    await db('products').insert([
      { tenant_id: 5, name: 'kept' },
      { tenant_id: 6, name: 'hidden' },
      { tenant_id: 5, name: 'also kept' },
    ])
    await db.destroy()
    const out: string[] = []
    const err: string[] = []
    const code = await runCli(
      ['explain', '/products?columns[0]=name', '--map', 'guarded.mjs', '--db', file, '--context', '{"tenantId":5}'],
      { out: (text) => out.push(text), err: (text) => err.push(text) },
      dir,
    )
    expect([code, err]).to.deep.equal([0, []])
    const text = out.join('\n')
    expect(text).to.include(
      '1. select `products`.`name` from `products` where (`products`.`tenant_id` = ?)\n     Bindings: [5]',
    )
    expect(text).to.include('Rows (2):\n  {"name":"kept"}\n  {"name":"also kept"}')
  })

  it("from both: the JSON's keys win", async () => {
    expect(await sqlOf('--context-module', 'context.mjs', '--context', '{"tenantId":9}')).to.deep.equal(guarded(9))
  })
})
