import { Validator } from '@seriousme/openapi-schema-validator'
import { expect } from 'chai'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cliArguments } from '../../lib/cli/cli-arguments.ts'
import { EXIT, runCli } from '../../lib/cli/run-cli.ts'
import { openApiDocument } from '../../lib/openapi.ts'

const MAP = `export const relationMap = {
  users: { columns: { id: 'integer', name: 'string' }, relations: { posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' } } },
  posts: { columns: { id: 'integer', user_id: 'integer', title: 'string' } },
}
`

interface Result {
  code: number
  out: string[]
  err: string[]
}

describe('knex-query-params openapi --map <module> [--out file]', function () {
  this.timeout(60_000)
  let dir: string
  const run = async (...argv: string[]): Promise<Result> => {
    const result: Result = { code: -1, out: [], err: [] }
    result.code = await runCli(
      argv,
      { out: (text) => result.out.push(text), err: (text) => result.err.push(text) },
      dir,
    )
    return result
  }

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kqp-cli-openapi-'))
    writeFileSync(join(dir, 'map.mjs'), MAP)
    writeFileSync(
      join(dir, 'routed.mjs'),
      `${MAP}export const openApiOptions = { title: 'Blog', resources: [{ path: '/api/posts', table: 'posts', options: { maxLimit: 50 }, formPath: '/api/posts/search' }] }\n`,
    )
    writeFileSync(join(dir, 'bad-options.mjs'), `${MAP}export const openApiOptions = { title: 'no resources' }\n`)
  })
  after(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('reads its arguments', () => {
    expect(cliArguments(['openapi', '--map', './m.js', '--out', 'o.json', '--tables', 'a, b'])).to.deep.equal({
      command: 'openapi',
      map: './m.js',
      out: 'o.json',
      tables: ['a', 'b'],
    })
    expect(() => cliArguments(['openapi'])).to.throw('Missing --map <file>')
    expect(() => cliArguments(['openapi', '--map', 'm.js', '--naming', 'camel'])).to.throw(
      "--naming is not an option of 'openapi'.",
    )
  })

  it('prints the document of every table (list and item routes) on stdout: the same JSON as openApiDocument, valid OpenAPI 3.1', async () => {
    const result = await run('openapi', '--map', './map.mjs')
    expect(result.err).to.deep.equal([])
    expect(result.code).to.equal(EXIT.ok)
    const printed = JSON.parse(result.out.join('\n')) as Record<string, unknown>
    const { relationMap } = (await import(join(dir, 'map.mjs'))) as {
      relationMap: Parameters<typeof openApiDocument>[0]
    }
    const expected = openApiDocument(relationMap, {
      resources: ['users', 'posts'].map((table) => ({ path: `/${table}`, table, item: true })),
    })
    expect(printed).to.deep.equal(expected)
    expect((await new Validator().validate(printed)).valid).to.equal(true)
  })

  it("writes the file with --out, from the module's openApiOptions when it exports them", async () => {
    const result = await run('openapi', '--map', './routed.mjs', '--out', 'openapi.json')
    expect(result).to.deep.equal({ code: EXIT.ok, out: ['Wrote openapi.json: OpenAPI 3.1, 1 resources.'], err: [] })
    const written = JSON.parse(readFileSync(join(dir, 'openapi.json'), 'utf8')) as {
      info: { title: string }
      paths: Record<string, unknown>
      components: { schemas: Record<string, { maximum?: number }> }
    }
    expect(written.info.title).to.equal('Blog')
    expect(Object.keys(written.paths)).to.deep.equal(['/api/posts', '/api/posts/search'])
    expect(written.components.schemas['posts.query.limit']?.maximum).to.equal(50)
  })

  it('--tables picks tables; a table not in the map, bad openApiOptions and an unwritable file are usage errors on one line', async () => {
    const picked = await run('openapi', '--map', './map.mjs', '--tables', 'posts')
    expect(Object.keys((JSON.parse(picked.out.join('\n')) as { paths: object }).paths)).to.deep.equal([
      '/posts',
      '/posts/{id}',
    ])
    expect(await run('openapi', '--map', './map.mjs', '--tables', 'nope')).to.deep.equal({
      code: EXIT.usage,
      out: [],
      err: ["knex-query-params: --tables names 'nope', which is not a table of the relation map."],
    })
    expect(await run('openapi', '--map', './bad-options.mjs')).to.deep.equal({
      code: EXIT.usage,
      out: [],
      err: ['knex-query-params: The module ./bad-options.mjs exports openApiOptions without a resources list.'],
    })
    const unwritable = await run('openapi', '--map', './map.mjs', '--out', 'missing-dir/openapi.json')
    expect(unwritable.code).to.equal(EXIT.usage)
    expect(unwritable.err).to.have.length(1)
    expect(unwritable.err[0]).to.match(/^knex-query-params: Cannot write missing-dir\/openapi.json: ENOENT/)
  })
})
