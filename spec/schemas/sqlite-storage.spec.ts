import { expect } from 'chai'
import { applyQueryParams, parseQueryParams, type RelationMap } from '../../lib/index.ts'
import { checkRelationMap, introspectRelationMapWithNotices } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

const database = testDatabases().find((candidate) => candidate.name === 'sqlite')

/**
 * Instants stored four ways in columns declared datetime: epoch seconds (a fraction on one), epoch milliseconds,
 * date-only text (the day alone), SQLite text.
 */
const EVENTS = [
  { id: 1, at: '2024-02-13T23:59:59.000Z' },
  { id: 2, at: '2024-02-14T00:00:00.000Z' },
  { id: 3, at: '2024-02-14T12:00:00.000Z' },
  { id: 4, at: '2024-02-14T12:00:00.500Z' },
  { id: 5, at: '2024-02-15T00:00:00.000Z' },
]

if (database !== undefined) {
  describe('SQLite date-time storage sampled by the generator (epoch seconds, date-only text)', function () {
    this.timeout(60_000)
    let own: TestDatabase

    before(async () => {
      own = await freshDatabase(database, 'sqlite_storage')
      await own.knex.raw(
        'create table events (id integer primary key, at_s datetime not null, at_ms datetime not null, day datetime not null, ' +
          'at_text datetime not null)',
      )
      await own.knex.raw('create table logs (id integer primary key, at datetime)')
      await own.knex('events').insert(
        EVENTS.map(({ id, at }) => ({
          id,
          at_s: Date.parse(at) / 1000,
          at_ms: Date.parse(at),
          day: at.slice(0, 10),
          // SQLite's own form: milliseconds only when not zero, as CURRENT_TIMESTAMP and the library write it.
          at_text: `${at.slice(0, 10)} ${at.slice(11, 19)}${at.slice(20, 23) === '000' ? '' : at.slice(19, 23)}`,
        })),
      )
      // A mix of forms: no one storage fits, the default stays and a notice says why.
      await own.knex('logs').insert([
        { id: 1, at: 1707868800 },
        { id: 2, at: '2024-02-14' },
      ])
    })

    after(async () => {
      await dropFreshDatabase(own)
    })

    it('declares epoch_s and date storage from the sampled values, a notice for each, and the map is clean', async () => {
      const { map, notices } = await introspectRelationMapWithNotices(own.knex, { tables: ['events', 'logs'] })
      expect(map['events']?.columns).to.deep.equal({
        id: 'integer',
        at_s: { type: 'datetime', nullable: false, storage: 'epoch_s' },
        at_ms: { type: 'datetime', nullable: false, storage: 'epoch_ms' },
        day: { type: 'datetime', nullable: false, storage: 'date' },
        at_text: { type: 'datetime', nullable: false },
      })
      expect(
        notices.filter((notice) => notice.kind === 'datetime-storage').map((notice) => notice.message),
      ).to.deep.equal([
        "events.at_s: declared storage 'epoch_s', the form of its 5 sampled values",
        "events.at_ms: declared storage 'epoch_ms', the form of its 5 sampled values",
        "events.day: declared storage 'date', the form of its 5 sampled values",
        "logs.at: storage left 'text', its 2 sampled values have no one form the map can declare (0 epoch ms, 1 epoch " +
          'seconds, 0 ISO, 0 text, 1 date-only); checkRelationMap will warn',
      ])
      const problems = await checkRelationMap(own.knex, map)
      expect(problems.map((problem) => [problem.kind, problem.path])).to.deep.equal([
        ['datetime_storage_mismatch', 'logs.columns.at'],
      ])
      expect(problems[0]?.message).to.equal(
        "declared storage 'text' (YYYY-MM-DD HH:MM:SS), but 2 of 2 sampled values of logs.at are not (found 1 " +
          'numbers below 1e11 (epoch_s?), 1 YYYY-MM-DD text (date?)): filters and orders on it would not match ' +
          "PostgreSQL's",
      )
      const { logs: _, ...events } = map
      expect(await checkRelationMap(own.knex, events)).to.deep.equal([])
    })

    it('filters on each storage return the rows PostgreSQL would, and rows read back as the same instants', async () => {
      const map: RelationMap = {
        events: {
          columns: {
            id: 'integer',
            at_s: { type: 'datetime', storage: 'epoch_s' },
            at_ms: { type: 'datetime', storage: 'epoch_ms' },
            day: { type: 'datetime', storage: 'date' },
            at_text: 'datetime',
          },
        },
      }
      const ids = async (column: string, operator: string, value: string): Promise<number[]> => {
        const rows = await applyQueryParams(
          own.knex('events'),
          parseQueryParams(
            `wheres[0][column]=${column}&wheres[0][operator]=${encodeURIComponent(operator)}&wheres[0][value]=` +
              `${encodeURIComponent(value)}&orders[0][column]=id&columns[0]=id`,
          ),
          map,
        )
        return rows.map((row) => Number(row['id']))
      }
      const cases: Array<[string, string, number[]]> = [
        ['>', '2024-02-14T00:00:00Z', [3, 4, 5]],
        ['>=', '2024-02-14T00:00:00Z', [2, 3, 4, 5]],
        ['=', '2024-02-14T12:00:00Z', [3]],
        ['>=', '2024-02-14T12:00:00.5Z', [4, 5]],
        ['<', '2024-02-14T12:00:00.5Z', [1, 2, 3]],
        ['>', '2023-01-01', [1, 2, 3, 4, 5]],
      ]
      for (const [operator, value, expected] of cases) {
        for (const column of ['at_s', 'at_ms', 'at_text'])
          expect(await ids(column, operator, value), `${column} ${operator} ${value}`).to.deep.equal(expected)
      }
      // Date-only text holds each row's day at midnight UTC: rows 1 → 13th, 2–4 → 14th, 5 → 15th.
      const dayCases: Array<[string, string, number[]]> = [
        ['>', '2024-02-14T00:00:00Z', [5]],
        ['>=', '2024-02-14T00:00:00Z', [2, 3, 4, 5]],
        ['=', '2024-02-14T00:00:00Z', [2, 3, 4]],
        ['=', '2024-02-14T12:00:00Z', []],
        ['>=', '2024-02-14T12:00:00Z', [5]],
        ['<', '2024-02-14T12:00:00Z', [1, 2, 3, 4]],
        ['<=', '2024-02-13T23:59:59Z', [1]],
      ]
      for (const [operator, value, expected] of dayCases)
        expect(await ids('day', operator, value), `day ${operator} ${value}`).to.deep.equal(expected)
      const rows = await applyQueryParams(own.knex('events'), parseQueryParams('orders[0][column]=id'), map)
      expect(rows).to.deep.equal(
        EVENTS.map(({ id, at }) => ({ id, at_s: at, at_ms: at, day: `${at.slice(0, 10)}T00:00:00.000Z`, at_text: at })),
      )
    })

    it("a declared min or max over an epoch_s column is the same instant as the column's own values", async () => {
      await own.knex.raw('create table stamp_owners (id integer primary key)')
      await own.knex.raw('create table stamps (id integer primary key, owner_id integer not null, at integer not null)')
      await own.knex('stamp_owners').insert([{ id: 1 }, { id: 2 }])
      await own.knex('stamps').insert(EVENTS.map(({ id, at }) => ({ id, owner_id: 1, at: Date.parse(at) / 1000 })))
      const map: RelationMap = {
        stamp_owners: {
          columns: { id: 'integer' },
          relations: { stamps: { type: 'hasMany', table: 'stamps', foreignKey: 'owner_id' } },
          aggregates: {
            stampsFirst: { relation: 'stamps', fn: 'min', column: 'at' },
            stampsLast: { relation: 'stamps', fn: 'max', column: 'at' },
          },
        },
        stamps: { columns: { id: 'integer', owner_id: 'integer', at: { type: 'datetime', storage: 'epoch_s' } } },
      }
      const rows = await applyQueryParams(
        own.knex('stamp_owners'),
        parseQueryParams('with[0]=stampsFirst&with[1]=stampsLast&orders[0][column]=id'),
        map,
      )
      expect(rows).to.deep.equal([
        { id: 1, stamps_first: EVENTS[0]?.at, stamps_last: EVENTS[4]?.at },
        { id: 2, stamps_first: null, stamps_last: null },
      ])
    })
  })
}
