import { expect } from 'chai'
import { cliArguments } from '../../lib/cli/cli-arguments.ts'
import { UsageError } from '../../lib/cli/cli-io.ts'

describe('knex-query-params introspect: arguments', () => {
  it('reads --connection (with an optional --client), --out, --naming, --tables, --exclude, --expose-pivots', () => {
    expect(
      cliArguments([
        'introspect',
        '--client',
        'pg',
        '--connection',
        'postgres://u@h/db',
        '--out',
        'map.ts',
        '--naming',
        'camel',
        '--tables',
        'a, b,',
        '--exclude',
        'c',
        '--expose-pivots',
      ]),
    ).to.deep.equal({
      command: 'introspect',
      source: { connection: 'postgres://u@h/db', client: 'pg' },
      out: 'map.ts',
      naming: 'camel',
      tables: ['a', 'b'],
      exclude: ['c'],
      exposePivots: true,
    })
    expect(cliArguments(['introspect', '--connection', 'app.db'])).to.deep.equal({
      command: 'introspect',
      source: { connection: 'app.db' },
      naming: 'as-is',
      exposePivots: false,
    })
  })

  it('reads --sortable-indexed-only, absent when not given', () => {
    expect(cliArguments(['introspect', '--connection', 'app.db', '--sortable-indexed-only'])).to.deep.equal({
      command: 'introspect',
      source: { connection: 'app.db' },
      naming: 'as-is',
      exposePivots: false,
      sortableIndexedOnly: true,
    })
  })

  it('reads --views, absent when not given, and several schemas in --schema as the text given', () => {
    expect(
      cliArguments(['introspect', '--connection', 'app.db', '--views', '--schema', 'public,analytics']),
    ).to.deep.equal({
      command: 'introspect',
      source: { connection: 'app.db' },
      naming: 'as-is',
      exposePivots: false,
      schema: 'public,analytics',
      views: true,
    })
  })

  it('reads --schema, the PostgreSQL schema or MySQL database to read', () => {
    expect(cliArguments(['introspect', '--connection', 'postgres://u@h/db', '--schema', 'billing'])).to.deep.equal({
      command: 'introspect',
      source: { connection: 'postgres://u@h/db' },
      naming: 'as-is',
      schema: 'billing',
      exposePivots: false,
    })
  })

  it('reads --knexfile with an optional --env', () => {
    expect(
      cliArguments(['introspect', '--knexfile', 'knexfile.ts', '--env', 'staging', '--naming', 'snake']),
    ).to.deep.equal({
      command: 'introspect',
      source: { knexfile: 'knexfile.ts', env: 'staging' },
      naming: 'snake',
      exposePivots: false,
    })
  })

  it('reads --dialect with --knexfile: the SQL of a client the library does not list', () => {
    expect(cliArguments(['introspect', '--knexfile', 'knexfile.ts', '--dialect', 'postgres'])).to.deep.equal({
      command: 'introspect',
      source: { knexfile: 'knexfile.ts', dialect: 'postgres' },
      naming: 'as-is',
      exposePivots: false,
    })
  })

  const usage: Array<[string[], string]> = [
    [['introspect'], 'Missing the database: --connection <url> (with --client), or --knexfile <file> [--env <name>].'],
    [['introspect', '--connection', 'a.db', '--knexfile', 'k.js'], 'Give --connection or --knexfile, not both.'],
    [
      ['introspect', '--connection', 'a.db', '--env', 'x'],
      '--env picks an environment of --knexfile; with --connection there is none.',
    ],
    [
      ['introspect', '--knexfile', 'k.js', '--client', 'pg'],
      '--client comes from the knexfile; give it only with --connection.',
    ],
    [
      ['introspect', '--connection', 'a.db', '--client', 'oracle'],
      "Unknown --client 'oracle'; expected one of pg, mysql, sqlite.",
    ],
    [
      ['introspect', '--knexfile', 'k.js', '--dialect', 'cockroachdb'],
      "Unknown --dialect 'cockroachdb'; expected one of postgres, mysql, sqlite.",
    ],
    [
      ['introspect', '--connection', 'a.db', '--dialect', 'sqlite'],
      "--dialect declares the database of a knexfile's client; with --connection the URL names it.",
    ],
    [['explain', '/users', '--map', 'm.ts', '--dialect', 'sqlite'], "--dialect is not an option of 'explain'."],
    [
      ['introspect', '--connection', 'a.db', '--naming', 'kebab'],
      "Unknown --naming 'kebab'; expected one of camel, snake, as-is.",
    ],
    [['introspect', '--connection', 'a.db', '--map', 'm.ts'], "--map is not an option of 'introspect'."],
    [['introspect', 'extra', '--connection', 'a.db'], "Unexpected argument 'extra': introspect takes options only."],
    [['explain', '/users', '--map', 'm.ts', '--out', 'x'], "--out is not an option of 'explain'."],
    [['generate'], "Unknown command 'generate'; the commands are 'explain', 'introspect' and 'openapi'."],
  ]
  for (const [argv, message] of usage) {
    it(`rejects ${argv.join(' ')}`, () => {
      expect(() => cliArguments(argv)).to.throw(UsageError, message)
    })
  }
})
