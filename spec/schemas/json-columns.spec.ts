import { expect } from 'chai'
import { applyQueryParams, defineRelationMap, parseQueryParams } from '../../lib/index.ts'
import { checkRelationMap, introspectRelationMap } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

/** Each database's JSON column types: `body` the usual one, `extra` the other (SQLite: text, and a declared json). */
const JSON_TYPES = {
  sqlite: { body: 'text', extra: 'json' },
  postgres: { body: 'jsonb', extra: 'json' },
  mysql: { body: 'json', extra: 'json' },
} as const

/** The JSON text stored in each row, and the value every database must give back for it. */
const STORED: ReadonlyArray<readonly [id: number, text: string | null, value: unknown]> = [
  [1, '{"a": 1, "b": [true, null, "x"]}', { a: 1, b: [true, null, 'x'] }],
  [2, '[1, 2.5, "three"]', [1, 2.5, 'three']],
  [3, '"123"', '123'],
  [4, '42', 42],
  [5, 'false', false],
  [6, 'null', null],
  [7, null, null],
]

const map = defineRelationMap({
  kqp_shelves: {
    columns: { id: 'integer', name: { type: 'string', nullable: false } },
    relations: { docs: { type: 'hasMany', table: 'kqp_docs', foreignKey: 'shelf_id' } },
  },
  kqp_docs: {
    columns: { id: 'integer', shelf_id: { type: 'integer', nullable: false }, body: 'json', extra: 'json' },
  },
})

for (const database of testDatabases()) {
  describe(`json columns (${database.label})`, function () {
    this.timeout(120_000)
    let own: TestDatabase

    before(async () => {
      own = await freshDatabase(database, 'json_columns')
      const types = JSON_TYPES[database.name]
      await own.knex.raw('create table kqp_shelves (id integer primary key, name varchar(20) not null)')
      await own.knex.raw(
        `create table kqp_docs (id integer primary key, shelf_id integer not null references kqp_shelves (id), ` +
          `body ${types.body}, extra ${types.extra})`,
      )
      await own.knex('kqp_shelves').insert([
        { id: 1, name: 'one' },
        { id: 2, name: 'two' },
      ])
      await own
        .knex('kqp_docs')
        .insert(STORED.map(([id, text]) => ({ id, shelf_id: id < 4 ? 1 : 2, body: text, extra: text })))
    })

    after(async () => {
      await dropFreshDatabase(own)
    })

    it('selects each JSON value parsed, the same value on every database (a JSON string stays a string)', async () => {
      const rows = await applyQueryParams(own.knex('kqp_docs'), parseQueryParams('orders[0][column]=id'), map)
      expect(rows).to.deep.equal(
        STORED.map(([id, , value]) => ({ id, shelf_id: id < 4 ? 1 : 2, body: value, extra: value })),
      )
      expect(JSON.stringify(rows.map((row) => row.body))).to.equal(
        '[{"a":1,"b":[true,null,"x"]},[1,2.5,"three"],"123",42,false,null,null]',
      )
    })

    it('parses them in eager-loaded rows too', async () => {
      const shelves = await applyQueryParams(
        own.knex('kqp_shelves'),
        parseQueryParams('with[0]=docs&orders[0][column]=id&columns[0]=id'),
        map,
      )
      expect(shelves.map((shelf) => [shelf.id, shelf.docs?.map((doc: { body: unknown }) => doc.body)])).to.deep.equal([
        [1, [{ a: 1, b: [true, null, 'x'] }, [1, 2.5, 'three'], '123']],
        [2, [42, false, null, null]],
      ])
    })

    it('a filter on a json column is not_filterable, an order not_sortable (directly and through a relation)', () => {
      const filterable = ['id', 'shelf_id']
      for (const column of ['body', 'docs.body']) {
        const table = column === 'body' ? 'kqp_docs' : 'kqp_shelves'
        expectQueryParamsError(
          () =>
            applyQueryParams(
              own.knex(table),
              parseQueryParams(`wheres[0][column]=${column}&wheres[0][operator]=%3D&wheres[0][value]=42`),
              map,
            ),
          { code: 'not_filterable', param: 'wheres[0][column]', allowed: filterable },
        )
      }
      expectQueryParamsError(
        () => applyQueryParams(own.knex('kqp_docs'), parseQueryParams('orders[0][column]=extra'), map),
        { code: 'not_sortable', param: 'orders[0][column]', allowed: filterable },
      )
    })

    it('the generator declares json columns json, and checkRelationMap finds the map clean', async () => {
      const generated = await introspectRelationMap(own.knex, { tables: ['kqp_shelves', 'kqp_docs'] })
      expect(generated['kqp_docs']?.columns).to.deep.equal({
        id: 'integer',
        shelf_id: { type: 'integer', nullable: false },
        // SQLite's text column holds any text: only a column declared json is read as one.
        body: database.name === 'sqlite' ? 'string' : 'json',
        extra: 'json',
      })
      expect(await checkRelationMap(own.knex, generated)).to.deep.equal([])
      expect(await checkRelationMap(own.knex, map)).to.deep.equal([])
      // A text column declared json: SQLite gives JSON as text, which the library parses; PostgreSQL and MySQL give
      // a JSON column's value parsed and a text column's as text, so there json belongs on a JSON column only.
      const onText = {
        ...map,
        kqp_shelves: { ...map.kqp_shelves, columns: { id: 'integer', name: { type: 'json', nullable: false } } },
      } as const
      const problems = await checkRelationMap(own.knex, onText)
      expect(problems.map((problem) => [problem.kind, problem.level, problem.path])).to.deep.equal(
        database.name === 'sqlite' ? [] : [['type_mismatch', 'error', 'kqp_shelves.columns.name']],
      )
    })
  })
}

describe('json columns in the relation map', () => {
  it('a json column is selectable only: sortable: true, filterable: true or operators on it is an Error naming the path', () => {
    for (const [key, value] of [
      ['sortable', true],
      ['filterable', true],
      ['operators', ['=']],
    ] as const) {
      expect(() => defineRelationMap({ docs: { columns: { id: 'integer', body: { type: 'json', [key]: value } } } }))
        .to.throw(Error, `docs.columns.body.${key}`)
        .with.property('message')
        .that.includes('a json column can be selected only')
    }
    expect(() =>
      defineRelationMap({ docs: { columns: { id: 'integer', body: { type: 'json', sortable: false } } } }),
    ).not.to.throw()
  })

  it('an aggregate other than count over a json column is an Error naming the path', () => {
    expect(() =>
      defineRelationMap({
        shelves: {
          columns: { id: 'integer' },
          relations: { docs: { type: 'hasMany', table: 'docs', foreignKey: 'shelf_id' } },
          aggregates: { docsBodyMax: { relation: 'docs', fn: 'max', column: 'body' } },
        },
        docs: { columns: { id: 'integer', shelf_id: 'integer', body: 'json' } },
      }),
    ).to.throw(Error, "shelves.aggregates.docsBodyMax.column: 'max' over the json column docs.body")
  })
})
