import { expect } from 'chai'
import { mysqlEnumValues, sqliteCheckedValues } from '../../lib/dialect/schema/text-facts.ts'
import { applyQueryParams, parseQueryParams, type RelationMap } from '../../lib/index.ts'
import { checkRelationMap, introspectRelationMap } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

/** Columns no map type holds, per database: what a client would get as an array, a Buffer or an object. */
const ODD_COLUMNS = {
  sqlite: { data: 'blob' },
  postgres: { tags: 'text[]', data: 'bytea', spot: 'point' },
  mysql: { data: 'blob', spot: 'point' },
} as const

for (const database of testDatabases()) {
  describe(`declared types on a schema written by others (${database.label})`, function () {
    this.timeout(120_000)
    let own: TestDatabase

    before(async () => {
      own = await freshDatabase(database, 'declared_types')
    })

    after(async () => {
      await dropFreshDatabase(own)
    })

    it('a string declared on an array, bytes or a geometry is a type_mismatch error naming the path and both types', async () => {
      const odd = ODD_COLUMNS[database.name]
      await own.knex.raw(
        `create table kqp_odd (id integer primary key, ${Object.entries(odd)
          .map(([name, type]) => `${name} ${type}`)
          .join(', ')})`,
      )
      const map: RelationMap = {
        kqp_odd: {
          columns: { id: 'integer', ...Object.fromEntries(Object.keys(odd).map((name) => [name, 'string' as const])) },
        },
      }
      const problems = await checkRelationMap(own.knex, map)
      expect(problems.map((problem) => [problem.kind, problem.level, problem.path])).to.deep.equal(
        Object.keys(odd).map((name) => ['type_mismatch', 'error', `kqp_odd.columns.${name}`]),
      )
      expect(problems[0]?.message).to.match(
        /^declared 'string', but kqp_odd\.\w+ is [\w[\]]+, whose values are not scalars \(an array, bytes or a geometry\): rows would carry an array, a Buffer or an object$/,
      )
    })

    if (database.name === 'mysql') {
      it('MySQL BIT(1) is generated and read as a boolean, SET as its text, ENUM with its values', async () => {
        await own.knex.raw(
          "create table kqp_flags (id int primary key, flag bit(1) not null, options set('a', 'b', 'c'), size enum('S', 'M', 'it''s'))",
        )
        await own.knex.raw("insert into kqp_flags values (1, b'1', 'a,c', 'S'), (2, b'0', null, 'it''s')")
        const map = await introspectRelationMap(own.knex, { tables: ['kqp_flags'] })
        expect(map['kqp_flags']?.columns).to.deep.equal({
          id: 'integer',
          flag: { type: 'boolean', nullable: false },
          options: 'string',
          size: { type: 'string', values: ['S', 'M', "it's"], sortable: false },
        })
        const rows = await applyQueryParams(own.knex('kqp_flags'), parseQueryParams('orders[0][column]=id'), map)
        expect(rows).to.deep.equal([
          { id: 1, flag: true, options: 'a,c', size: 'S' },
          { id: 2, flag: false, options: null, size: "it's" },
        ])
        const set = await applyQueryParams(
          own.knex('kqp_flags'),
          parseQueryParams('wheres[0][column]=flag&wheres[0][value]=false&columns[0]=id'),
          map,
        )
        expect(set).to.deep.equal([{ id: 2 }])
      })
    }
  })
}

describe('enum values read from catalog text', () => {
  it('MySQL COLUMN_TYPE: quotes doubled or escaped, in declaration order', () => {
    expect(mysqlEnumValues("enum('G','PG-13','it''s','a\\\\b','x,y')")).to.deep.equal([
      'G',
      'PG-13',
      "it's",
      'a\\b',
      'x,y',
    ])
    expect(mysqlEnumValues('varchar(20)')).to.deep.equal([])
  })

  it('SQLite CHECK (column IN (…)) of the CREATE TABLE statement, by column', () => {
    const sql = `CREATE TABLE film (film_id integer primary key, rating text check (rating in ('G', 'PG-13', 'it''s')), "size" TEXT CHECK("size" IN ('S','M')), n int check (n > 0))`
    expect([...sqliteCheckedValues(sql)]).to.deep.equal([
      ['rating', ['G', 'PG-13', "it's"]],
      ['size', ['S', 'M']],
    ])
  })
})
