import { expect } from 'chai'
import knex from 'knex'
import pg from 'pg'
import {
  dayOfPostgresText,
  instantOfPostgresText,
  jsonReadOptions,
  readAsJson,
} from '../../lib/dialect/json-read-options.ts'
import { isoOfWallClock } from '../../lib/dialect/utc-text.ts'
import { applyQueryParams, defineRelationMap, parseQueryParams } from '../../lib/index.ts'
import { rowNormalizer } from '../../lib/normalize/row-normalizer.ts'
import { testDatabases } from '../support/databases.ts'

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

/** `timestamptz` text as PostgreSQL writes it in a UTC session, with `digits` fraction digits (trailing zeros included). */
function utcText(time: number, micros: number, digits: number): string {
  const iso = new Date(time).toISOString()
  const fraction = digits === 0 ? '' : `.${String(micros).padStart(6, '0').slice(0, digits)}`
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}+00`
}

describe('reading date-times close to their JSON form', () => {
  const pgTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date
  const pgDate = pg.types.getTypeParser(pg.types.builtins.DATE, 'text') as (text: string) => Date

  it("reads PostgreSQL timestamptz text in a UTC session as node-postgres's Date would be formatted, on 6,000 instants", () => {
    const next = random(19)
    for (let i = 0; i < 6000; i++) {
      const time = Math.floor(next() * 253402300799) * 1000 // years 1970–9999, whole seconds
      const text = utcText(time, Math.floor(next() * 1_000_000), i % 7)
      expect(instantOfPostgresText(text), text).to.equal(pgTimestamptz(text).toISOString())
    }
    expect(instantOfPostgresText('0044-03-15 12:00:00+00')).to.equal(
      pgTimestamptz('0044-03-15 12:00:00+00').toISOString(),
    )
  })

  it('leaves every other timestamptz form to the driver', () => {
    for (const text of [
      '2024-03-01 13:00:00+01',
      '2024-03-01 07:00:00-05',
      '2024-03-01 17:30:00+05:30',
      '1900-01-01 00:00:00+00:53:28',
      '0044-03-15 12:00:00+00 BC',
      'infinity',
      '-infinity',
      '2024-03-01 12:00:00.+00',
      '2024-03-01 12:00:00.1234567+00',
      '12024-03-01 12:00:00+00',
      '03/01/2024 12:00:00 UTC',
      '2024-03-01 12:00:0a+00',
    ]) {
      expect(instantOfPostgresText(text), text).to.equal(undefined)
    }
  })

  it('reads PostgreSQL date text as it is, and leaves BC and infinity to the driver', () => {
    expect(dayOfPostgresText('2024-02-29')).to.equal('2024-02-29')
    expect(dayOfPostgresText('0099-12-31')).to.equal('0099-12-31')
    for (const text of ['0044-03-15 BC', 'infinity', '-infinity', '12024-01-01', '01/03/2024', '2024-3-01x'])
      expect(dayOfPostgresText(text), text).to.equal(undefined)
  })

  it('builds the ISO instant of wall-clock text with 0 to 3 fraction digits', () => {
    expect(isoOfWallClock('2024-03-01 12:00:00', 0)).to.equal('2024-03-01T12:00:00.000Z')
    expect(isoOfWallClock('2024-03-01T12:00:00.5', 1)).to.equal('2024-03-01T12:00:00.500Z')
    expect(isoOfWallClock('2024-03-01 12:00:00.123', 3)).to.equal('2024-03-01T12:00:00.123Z')
  })

  it('gives node-postgres statements type parsers for date, timestamp (its wall clock as UTC, in any process zone) and timestamptz only, keeping every other parser of the connection', () => {
    const own = {
      getTypeParser: (oid: number, format?: string): unknown =>
        oid === 20 ? Number : pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text'),
    }
    const db = knex({
      client: 'pg',
      connection: { connectionString: 'postgres://nobody@127.0.0.1:1/none', types: own },
    })
    try {
      const types = (jsonReadOptions(db.client)?.types ?? {}) as {
        getTypeParser(oid: number, format?: string): (text: string) => unknown
      }
      expect(types.getTypeParser(pg.types.builtins.TIMESTAMPTZ)('2024-03-01 12:00:00.123456+00')).to.equal(
        '2024-03-01T12:00:00.123Z',
      )
      expect(types.getTypeParser(pg.types.builtins.TIMESTAMPTZ)('2024-03-01 13:00:00+01')).to.deep.equal(
        new Date('2024-03-01T12:00:00.000Z'),
      )
      expect(types.getTypeParser(pg.types.builtins.DATE)('2024-03-01')).to.equal('2024-03-01')
      expect(types.getTypeParser(pg.types.builtins.DATE)('infinity')).to.equal(pgDate('infinity'))
      expect(types.getTypeParser(pg.types.builtins.TIMESTAMP)('2024-03-01 12:00:00.123456')).to.equal(
        '2024-03-01T12:00:00.123Z',
      )
      expect(types.getTypeParser(pg.types.builtins.TIMESTAMP)('2024-03-01 12:00:00')).to.equal(
        '2024-03-01T12:00:00.000Z',
      )
      expect(types.getTypeParser(pg.types.builtins.TIMESTAMP)('infinity')).to.equal(
        pg.types.getTypeParser(pg.types.builtins.TIMESTAMP, 'text')('infinity'),
      )
      expect(types.getTypeParser(pg.types.builtins.TIME)).to.equal(
        pg.types.getTypeParser(pg.types.builtins.TIME, 'text'),
      )
      expect(types.getTypeParser(20)).to.equal(Number)
      expect(jsonReadOptions(db.client)).to.equal(jsonReadOptions(db.client))
    } finally {
      void db.destroy()
    }
  })

  it("keeps a caller's own date parser and a statement's own types or parsers; PGlite gets a timestamp parser, other drivers no options", () => {
    const keepText = (text: string): string => text
    const own = {
      getTypeParser: (oid: number, format?: string): unknown =>
        oid === pg.types.builtins.DATE
          ? keepText
          : pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text'),
    }
    const pgDb = knex({
      client: 'pg',
      connection: { connectionString: 'postgres://nobody@127.0.0.1:1/none', types: own },
    })
    const sqlite = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
    try {
      const types = (jsonReadOptions(pgDb.client)?.types ?? {}) as {
        getTypeParser(oid: number, format?: string): unknown
      }
      expect(types.getTypeParser(pg.types.builtins.DATE)).to.equal(keepText)
      const theirs = { getTypeParser: () => keepText }
      expect(readAsJson(pgDb('t').options({ types: theirs })).toSQL().options).to.deep.equal({ types: theirs })
      expect(readAsJson(pgDb('t')).toSQL().options).to.have.property('types')
      expect(jsonReadOptions(sqlite.client)).to.equal(undefined)
      const pglite = testDatabases().find((db) => db.engine === 'pglite')
      if (pglite !== undefined) {
        // PGlite builds a timestamp's Date in the process's zone: its statements get a parser for that type alone.
        const parsers = (jsonReadOptions(pglite.knex.client)?.parsers ?? {}) as Record<
          number,
          (text: string) => unknown
        >
        expect(Object.keys(parsers)).to.deep.equal([String(pg.types.builtins.TIMESTAMP)])
        expect(parsers[pg.types.builtins.TIMESTAMP]?.('2024-03-01 12:00:00.5')).to.equal('2024-03-01T12:00:00.500Z')
        const own = { parsers: { [pg.types.builtins.TIMESTAMP]: keepText } }
        expect(readAsJson(pglite.knex('t').options(own)).toSQL().options).to.deep.equal(own)
      }
      expect(readAsJson(sqlite('t')).toSQL().options).to.deep.equal({})
    } finally {
      void pgDb.destroy()
      void sqlite.destroy()
    }
  })
})

describe('the compiled row normalizer', () => {
  const map = defineRelationMap({
    odd: {
      columns: {
        id: 'integer',
        'say "hi"': 'boolean',
        'back\\slash': 'datetime',
        '\u2028line': 'date',
        ok: 'boolean',
        at: 'datetime',
      },
    },
  })
  const reading = { zone: 0, datetime: 'instant', json: 'parsed' } as const
  const rows = (): Array<Record<string, unknown>> => [
    {
      id: '1',
      'say "hi"': 1,
      'back\\slash': '2024-03-01 12:00:00',
      '\u2028line': '2024-03-01',
      ok: 0,
      at: null,
      extra: 1,
    },
    { id: 2, 'say "hi"': 't', 'back\\slash': 1709294400000, ok: true },
  ]
  const expected = [
    {
      id: 1,
      'say "hi"': true,
      'back\\slash': '2024-03-01T12:00:00.000Z',
      '\u2028line': '2024-03-01',
      ok: false,
      at: null,
      extra: 1,
    },
    { id: 2, 'say "hi"': true, 'back\\slash': '2024-03-01T12:00:00.000Z', ok: true },
  ]

  it('reads and writes columns whatever their names hold (quotes, backslashes, line separators)', () => {
    const given = rows()
    rowNormalizer(map, 'odd', reading)(given)
    expect(given).to.deep.equal(expected)
  })

  it('gives the same rows where the runtime compiles no code', () => {
    const original = globalThis.Function
    globalThis.Function = function refused(): never {
      throw new EvalError('Code generation from strings disallowed for this context')
    } as unknown as FunctionConstructor
    let normalize: (rows: readonly Record<string, unknown>[]) => void
    try {
      normalize = rowNormalizer(map, 'odd', { zone: 0, datetime: 'wall-clock', json: 'text' })
    } finally {
      globalThis.Function = original
    }
    expect(normalize.name).not.to.equal('normalizeRows')
    const given = rows()
    normalize(given)
    expect(given).to.deep.equal(expected)
    expect(rowNormalizer(map, 'odd', reading).name).to.equal('normalizeRows')
  })
})

for (const database of testDatabases()) {
  if (database.engine !== 'postgres-server' || database.server === undefined) continue
  const { url } = database.server
  describe(`JSON-ready values only for the library's own selection (${database.label})`, function () {
    this.timeout(60_000)
    // node-postgres as it comes, in a UTC session: where the library asks it for date-times as text.
    const db = knex({
      client: 'pg',
      connection: { connectionString: url, options: '-c TimeZone=UTC' },
      pool: { min: 0, max: 2 },
    })
    const map = defineRelationMap({ kqp_fast_events: { columns: { id: 'integer', at: 'datetime', day: 'date' } } })

    before(async () => {
      await db.schema.createTable('kqp_fast_events', (table) => {
        table.integer('id').primary()
        table.timestamp('at', { useTz: true })
        table.date('day')
      })
      await db('kqp_fast_events').insert({ id: 1, at: new Date('2024-03-01T12:00:00.123Z'), day: '2024-03-01' })
    })

    after(async () => {
      await db.schema.dropTableIfExists('kqp_fast_events')
      await db.destroy()
    })

    it('the allow-listed columns come as JSON; a column the caller selects after applyQueryParams comes as the driver gives it', async () => {
      const query = applyQueryParams(db('kqp_fast_events'), parseQueryParams('limit=1'), map)
      expect(await query).to.deep.equal([{ id: 1, at: '2024-03-01T12:00:00.123Z', day: '2024-03-01' }])
      const rows = (await applyQueryParams(db('kqp_fast_events'), parseQueryParams('limit=1'), map).select(
        'kqp_fast_events.at as raw_at',
      )) as Array<Record<string, unknown>>
      expect(rows[0]?.['at']).to.equal('2024-03-01T12:00:00.123Z')
      expect(rows[0]?.['raw_at']).to.be.instanceOf(Date)
      expect((rows[0]?.['raw_at'] as Date | undefined)?.toISOString()).to.equal('2024-03-01T12:00:00.123Z')
    })
  })
}
