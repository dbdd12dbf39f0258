import { expect } from 'chai'
import { applyQueryParams, defineRelationMap, loadRelations, paginate, parseQueryParams } from '../../lib/index.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

/** Bare map keys for tables that live in another schema than the connection's (MySQL: another database). */
const map = defineRelationMap({
  reports: {
    columns: { id: 'integer', title: { type: 'string', nullable: false } },
    relations: {
      lines: { type: 'hasMany', table: 'report_lines', foreignKey: 'report_id' },
      biggestLine: {
        type: 'hasMany',
        table: 'report_lines',
        foreignKey: 'report_id',
        limit: 1,
        orders: [{ column: 'amount', direction: 'desc' }],
      },
      tags: {
        type: 'belongsToMany',
        table: 'tags',
        pivotTable: 'report_tag',
        foreignPivotKey: 'report_id',
        relatedPivotKey: 'tag_id',
      },
    },
    aggregates: {
      linesCount: { relation: 'lines', fn: 'count' },
      linesAmountSum: { relation: 'lines', fn: 'sum', column: 'amount' },
    },
  },
  report_lines: {
    columns: {
      id: 'integer',
      report_id: { type: 'integer', nullable: false },
      amount: { type: 'integer', nullable: false },
    },
    relations: { report: { type: 'belongsTo', table: 'reports', foreignKey: 'report_id', required: true } },
  },
  tags: { columns: { id: 'integer', name: { type: 'string', nullable: false } } },
})

for (const database of testDatabases().filter((each) => each.name !== 'sqlite')) {
  describe(`withSchema carried into every subquery the library writes (${database.label})`, function () {
    this.timeout(120_000)
    let own: TestDatabase
    let second: TestDatabase | undefined
    let schema = 'analytics'

    before(async () => {
      own = await freshDatabase(database, 'with_schema')
      if (database.name === 'mysql') {
        second = await freshDatabase(database, 'with_schema_b')
        schema = second.server?.name ?? ''
        await second.knex.destroy()
      } else {
        await own.knex.raw('create schema analytics')
      }
      const run = (sql: string): Promise<unknown> => own.knex.raw(sql) as Promise<unknown>
      await run(`create table ${schema}.reports (id integer primary key, title varchar(40) not null)`)
      await run(
        `create table ${schema}.report_lines (id integer primary key, report_id integer not null references ` +
          `${schema}.reports (id), amount integer not null)`,
      )
      await run(`create table ${schema}.tags (id integer primary key, name varchar(40) not null)`)
      await run(
        `create table ${schema}.report_tag (report_id integer not null references ${schema}.reports (id), ` +
          `tag_id integer not null references ${schema}.tags (id), primary key (report_id, tag_id))`,
      )
      await run(`insert into ${schema}.reports values (1, 'alpha'), (2, 'beta'), (3, 'gamma')`)
      await run(`insert into ${schema}.report_lines values (1, 1, 5), (2, 1, 7), (3, 2, 1), (4, 3, 20)`)
      await run(`insert into ${schema}.tags values (1, 'red'), (2, 'blue')`)
      await run(`insert into ${schema}.report_tag values (1, 2), (3, 1), (3, 2)`)
    })

    after(async () => {
      for (const table of ['report_tag', 'tags', 'report_lines', 'reports'])
        await own.knex.raw(`drop table if exists ${schema}.${table}`)
      if (database.name !== 'mysql') await own.knex.raw('drop schema if exists analytics')
      await dropFreshDatabase(own)
      if (second !== undefined) await dropFreshDatabase(second)
    })

    const reports = (query: string): Promise<Array<Record<string, unknown>>> =>
      applyQueryParams(own.knex('reports').withSchema(schema), parseQueryParams(query), map) as Promise<
        Array<Record<string, unknown>>
      >

    it('relation filters (hasMany, belongsToMany) and relationsExists', async () => {
      const filtered = await reports(
        'wheres[0][column]=lines.amount&wheres[0][operator]=%3E&wheres[0][value]=6&orders[0][column]=id&columns[0]=id',
      )
      expect(filtered).to.deep.equal([{ id: 1 }, { id: 3 }])
      const tagged = await reports('wheres[0][column]=tags.name&wheres[0][value]=red&columns[0]=id')
      expect(tagged).to.deep.equal([{ id: 3 }])
      const exists = await reports('relations_exists[0]=tags&orders[0][column]=id&columns[0]=id')
      expect(exists).to.deep.equal([{ id: 1 }, { id: 3 }])
    })

    it('aggregates selected and ordered by, and orders through a belongsTo', async () => {
      const counted = await reports(
        'with[0]=linesCount&with[1]=linesAmountSum&orders[0][column]=linesCount&orders[0][direction]=desc' +
          '&orders[1][column]=id&columns[0]=id',
      )
      expect(counted).to.deep.equal([
        { id: 1, lines_count: 2, lines_amount_sum: 12 },
        { id: 2, lines_count: 1, lines_amount_sum: 1 },
        { id: 3, lines_count: 1, lines_amount_sum: 20 },
      ])
      const lines = await applyQueryParams(
        own.knex('report_lines').withSchema(schema),
        parseQueryParams('orders[0][column]=report.title&orders[0][direction]=desc&orders[1][column]=id&columns[0]=id'),
        map,
      )
      expect(lines).to.deep.equal([{ id: 4 }, { id: 3 }, { id: 1 }, { id: 2 }])
    })

    it('eager loading (hasMany, belongsToMany, belongsTo) and paginate', async () => {
      const loaded = await reports('with[0]=lines&with[1]=tags&orders[0][column]=id&columns[0]=id')
      expect(loaded).to.deep.equal([
        {
          id: 1,
          lines: [
            { id: 1, report_id: 1, amount: 5 },
            { id: 2, report_id: 1, amount: 7 },
          ],
          tags: [{ id: 2, name: 'blue' }],
        },
        { id: 2, lines: [{ id: 3, report_id: 2, amount: 1 }], tags: [] },
        {
          id: 3,
          lines: [{ id: 4, report_id: 3, amount: 20 }],
          tags: [
            { id: 1, name: 'red' },
            { id: 2, name: 'blue' },
          ],
        },
      ])
      const owned = await applyQueryParams(
        own.knex('report_lines').withSchema(schema),
        parseQueryParams('with[0]=report&wheres[0][column]=id&wheres[0][value]=4&columns[0]=id'),
        map,
      )
      expect(owned).to.deep.equal([{ id: 4, report: { id: 3, title: 'gamma' } }])
      // A top-N relation: PostgreSQL reads it through a lateral join on the parents' keys, MySQL with a window.
      const biggest = await reports('with[0]=biggestLine&orders[0][column]=id&columns[0]=id')
      expect(biggest.map((row) => [row['id'], row['biggestLine']])).to.deep.equal([
        [1, [{ id: 2, report_id: 1, amount: 7 }]],
        [2, [{ id: 3, report_id: 2, amount: 1 }]],
        [3, [{ id: 4, report_id: 3, amount: 20 }]],
      ])
      const page = await paginate(
        applyQueryParams(
          own.knex('reports').withSchema(schema),
          parseQueryParams('relations_exists[0]=lines&with[0]=tags&limit=2&page=1&orders[0][column]=id&columns[0]=id'),
          map,
        ),
        parseQueryParams('limit=2&page=1'),
      )
      expect(page.meta.total).to.equal(3)
      expect(page.data.map((row) => row['id'])).to.deep.equal([1, 2])
    })

    it('loadRelations with its schema option: relations, a top-N relation and aggregates read in that schema', async () => {
      const rows = await own.knex('reports').withSchema(schema).select('id').whereIn('id', [1, 3]).orderBy('id')
      const loaded = await loadRelations(
        own.knex,
        'reports',
        rows,
        ['lines', 'tags', 'biggestLine', 'linesCount'],
        map,
        {
          schema,
        },
      )
      expect(loaded).to.deep.equal([
        {
          id: 1,
          lines: [
            { id: 1, report_id: 1, amount: 5 },
            { id: 2, report_id: 1, amount: 7 },
          ],
          tags: [{ id: 2, name: 'blue' }],
          biggestLine: [{ id: 2, report_id: 1, amount: 7 }],
          lines_count: 2,
        },
        {
          id: 3,
          lines: [{ id: 4, report_id: 3, amount: 20 }],
          tags: [
            { id: 1, name: 'red' },
            { id: 2, name: 'blue' },
          ],
          biggestLine: [{ id: 4, report_id: 3, amount: 20 }],
          lines_count: 1,
        },
      ])
      // Without it the connection's own schema is read, which has no such tables.
      let failure: unknown
      try {
        await loadRelations(own.knex, 'reports', rows, ['lines'], map)
      } catch (error) {
        failure = error
      }
      expect(failure).to.be.instanceOf(Error)
    })
  })
}
