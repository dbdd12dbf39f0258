import { expect } from 'chai'
import type { Knex } from 'knex'
import { createRentals } from '../../fixtures/rentals/create-rentals.ts'
import { seedRentals } from '../../fixtures/rentals/seed-rentals.ts'
import {
  applyQueryParams,
  cursorPaginate,
  paginate,
  parseQueryParams,
  type RelationMap,
  type TableDefinition,
} from '../../lib/index.ts'
import { checkRelationMap, introspectRelationMapWithNotices } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { countQueries, type QueryEvent } from '../support/count-queries.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'
import { createRentalCharges } from './support/rental-charges.ts'

type Row = Record<string, unknown>

const KEY = ['rental_id', 'rental_date']
const SECRET = 'composite keys spec secret, at least 32 bytes long'

/** The ids of `rows` under `column`, as numbers (drivers give some integers as strings). */
const ids = (rows: readonly Row[], column: string): number[] => rows.map((row) => Number(row[column]))

/** A knex statement that ran, as a snapshot-able value. */
const ran = (query: QueryEvent | undefined): { toSQL(): { sql: string; bindings: readonly unknown[] } } => ({
  toSQL: () => ({ sql: query?.sql ?? '', bindings: query?.bindings ?? [] }),
})

for (const database of testDatabases()) {
  describe(`composite relation keys: a foreign key that spans the partition key (${database.label})`, function () {
    this.timeout(180_000)
    let own: TestDatabase
    let db: Knex
    let map: RelationMap
    /** Every charge as `[charge_id, rental_id]`, by charge id: what the hand-written SQL reads. */
    let charges: Array<{ charge_id: number; rental_id: number; amount: number; kind: string }>
    const snapshot = (key: string, builder: { toSQL(): unknown }): void =>
      expectSql(database.name, `schemas/composite/${key}`, builder as Parameters<typeof expectSql>[2])

    const rows = async (table: string, query: string, relationMap: RelationMap = map): Promise<Row[]> =>
      (await applyQueryParams(db(table), parseQueryParams(query), relationMap)) as Row[]

    before(async () => {
      own = await freshDatabase(database, 'composite')
      db = own.knex
      await createRentals(db)
      await seedRentals(db)
      await createRentalCharges(db)
      map = (await introspectRelationMapWithNotices(db)).map
      charges = (
        (await db('rental_charge').orderBy('charge_id').select('charge_id', 'rental_id', 'amount', 'kind')) as Row[]
      ).map((row) => ({
        charge_id: Number(row['charge_id']),
        rental_id: Number(row['rental_id']),
        amount: Number(row['amount']),
        kind: String(row['kind']),
      }))
    })

    after(async () => {
      await dropFreshDatabase(own)
    })

    it('introspect generates a composite belongsTo and its hasMany, and checkRelationMap finds nothing to report', async () => {
      const { notices } = await introspectRelationMapWithNotices(db)
      expect(map['rental_charge']?.relations?.['rental']).to.deep.equal({
        type: 'belongsTo',
        table: 'rental',
        foreignKey: KEY,
        required: true,
      })
      expect(map['rental']?.relations?.['rental_charges']).to.deep.equal({
        type: 'hasMany',
        table: 'rental_charge',
        foreignKey: KEY,
      })
      expect(notices.filter((notice) => notice.kind === 'multi-column-foreign-key')).to.deep.equal([])
      expect(await checkRelationMap(db, map)).to.deep.equal([])
      expect(charges).to.have.length(80 + 60 + 24)
    })

    it('a filter through the composite belongsTo is a correlated exists on both columns: the rows of a join', async () => {
      const query = applyQueryParams(
        db('rental_charge'),
        parseQueryParams(
          'wheres[0][column]=rental.film_id&wheres[0][operator]=%3C%3D&wheres[0][value]=4&columns[0]=charge_id&limit=500',
        ),
        map,
      )
      snapshot('filter through belongsTo', query)
      const expected = (await db('rental_charge as c')
        .join('rental as r', (join) => join.on('r.rental_id', 'c.rental_id').andOn('r.rental_date', 'c.rental_date'))
        .where('r.film_id', '<=', 4)
        .orderBy('c.charge_id')
        .select('c.charge_id')) as Row[]
      const actual = (await query) as Row[]
      expect(ids(actual, 'charge_id')).to.deep.equal(ids(expected, 'charge_id'))
      expect(actual.length).to.be.above(3)
    })

    it('a filter through the composite hasMany, and relations_exists, are the exists of hand-written SQL', async () => {
      const query = applyQueryParams(
        db('rental'),
        parseQueryParams(
          'wheres[0][column]=rental_charges.kind&wheres[0][value]=damage&columns[0]=rental_id&orders[0][column]=rental_id&limit=500',
        ),
        map,
      )
      snapshot('filter through hasMany', query)
      const damaged = [
        ...new Set(charges.filter((charge) => charge.kind === 'damage').map((charge) => charge.rental_id)),
      ]
      expect(ids((await query) as Row[], 'rental_id')).to.deep.equal(damaged.sort((a, b) => a - b))
      // The same rows on every database: the rentals whose id is a multiple of 5.
      expect(damaged).to.deep.equal(Array.from({ length: 24 }, (_, index) => 5 * (index + 1)))

      const existing = applyQueryParams(
        db('rental'),
        parseQueryParams(
          'relations_exists[0]=rental_charges&columns[0]=rental_id&orders[0][column]=rental_id&limit=500',
        ),
        map,
      )
      snapshot('relations_exists hasMany', existing)
      const expected = (await db('rental as r')
        .whereExists((sub) =>
          sub
            .select(db.raw('1'))
            .from('rental_charge as c')
            .whereRaw('c.rental_id = r.rental_id and c.rental_date = r.rental_date'),
        )
        .orderBy('r.rental_id')
        .select('r.rental_id')) as Row[]
      expect(ids((await existing) as Row[], 'rental_id')).to.deep.equal(ids(expected, 'rental_id'))
      expect(expected).to.have.length(new Set(charges.map((charge) => charge.rental_id)).size)
    })

    it('a two-hop filter (one-column hasMany, then the composite one) and a search through the composite belongsTo', async () => {
      const query = applyQueryParams(
        db('film'),
        parseQueryParams(
          'wheres[0][column]=rentals.rental_charges.kind&wheres[0][value]=damage&columns[0]=film_id&limit=500',
        ),
        map,
      )
      snapshot('filter through two hops', query)
      const expected = (await db('film as f')
        .whereExists((sub) =>
          sub
            .select(db.raw('1'))
            .from('rental as r')
            .join('rental_charge as c', (join) =>
              join.on('c.rental_id', 'r.rental_id').andOn('c.rental_date', 'r.rental_date'),
            )
            .whereRaw('r.film_id = f.film_id')
            .where('c.kind', 'damage'),
        )
        .orderBy('f.film_id')
        .select('f.film_id')) as Row[]
      expect(ids((await query) as Row[], 'film_id')).to.deep.equal(ids(expected, 'film_id'))
      expect(expected.length).to.be.above(1)

      const charge = map['rental_charge'] as TableDefinition
      const searchable: RelationMap = {
        ...map,
        rental_charge: { ...charge, search: { columns: ['kind', 'rental.film.title'], mode: 'contains' } },
      }
      const found = await rows('rental_charge', 'search=ACADEMY&columns[0]=charge_id&limit=500', searchable)
      const titled = (await db('rental_charge as c')
        .join('rental as r', (join) => join.on('r.rental_id', 'c.rental_id').andOn('r.rental_date', 'c.rental_date'))
        .join('film as f', 'f.film_id', 'r.film_id')
        .whereRaw('lower(f.title) like ?', ['%academy%'])
        .orderBy('c.charge_id')
        .select('c.charge_id')) as Row[]
      expect(ids(found, 'charge_id')).to.deep.equal(ids(titled, 'charge_id'))
      expect(titled.length).to.be.above(0)
    })

    it('an order through the composite belongsTo joins on both columns; paginate counts without it; cursorPaginate walks it', async () => {
      const request = 'orders[0][column]=rental.film_id&orders[1][column]=charge_id&columns[0]=charge_id&limit=500'
      const query = applyQueryParams(db('rental_charge'), parseQueryParams(request), map)
      snapshot('order through belongsTo', query)
      const expected = ids(
        (await db('rental_charge as c')
          .join('rental as r', (join) => join.on('r.rental_id', 'c.rental_id').andOn('r.rental_date', 'c.rental_date'))
          .orderBy([{ column: 'r.film_id' }, { column: 'c.charge_id' }])
          .select('c.charge_id')) as Row[],
        'charge_id',
      )
      expect(ids((await query) as Row[], 'charge_id')).to.deep.equal(expected)

      const page = parseQueryParams(
        'orders[0][column]=rental.film_id&orders[1][column]=charge_id&columns[0]=charge_id&page=2&limit=25',
      )
      const paged = await paginate(applyQueryParams(db('rental_charge'), page, map), page)
      expect(paged.meta.total).to.equal(expected.length)
      expect(ids(paged.data as Row[], 'charge_id')).to.deep.equal(expected.slice(25, 50))

      const walked: number[] = []
      let cursor: string | null = null
      for (let pages = 0; pages < 20; pages++) {
        const params = parseQueryParams(
          `orders[0][column]=rental.film_id&columns[0]=charge_id&limit=30${cursor === null ? '' : `&cursor=${cursor}`}`,
        )
        const result = await cursorPaginate(applyQueryParams(db('rental_charge'), params, map), params, {
          secret: SECRET,
        })
        walked.push(...ids(result.data as Row[], 'charge_id'))
        cursor = result.meta.next_cursor
        if (cursor === null) break
      }
      expect(walked).to.deep.equal(expected)
    })

    it('with: one batched query per relation keyed by the tuple, each row matched to its parent by both columns', async () => {
      const { result, queries } = await countQueries(db, () =>
        rows(
          'rental',
          'with[0]=rental_charges&columns[0]=rental_id&columns[1]=rental_date&orders[0][column]=rental_id&limit=500',
        ),
      )
      expect(queries).to.have.length(2)
      const two = await countQueries(db, () =>
        rows('rental', 'with[0]=rental_charges&columns[0]=rental_id&orders[0][column]=rental_id&limit=2'),
      )
      snapshot('with hasMany', ran(two.queries[1]))
      expect(result).to.have.length(120)
      for (const rental of result) {
        const loaded = rental['rental_charges'] as Row[]
        expect(ids(loaded, 'charge_id')).to.deep.equal(
          charges.filter((charge) => charge.rental_id === rental['rental_id']).map((charge) => charge.charge_id),
        )
        for (const charge of loaded) expect(charge['rental_date']).to.deep.equal(rental['rental_date'])
      }

      const owners = await countQueries(db, () =>
        rows('rental_charge', 'with[0]=rental&columns[0]=charge_id&orders[0][column]=charge_id&limit=500'),
      )
      expect(owners.queries).to.have.length(2)
      const first = await countQueries(db, () =>
        rows('rental_charge', 'with[0]=rental&columns[0]=charge_id&orders[0][column]=charge_id&limit=2'),
      )
      snapshot('with belongsTo', ran(first.queries[1]))
      expect(owners.result.map((charge) => (charge['rental'] as Row)['rental_id'])).to.deep.equal(
        charges.map((charge) => charge.rental_id),
      )
      // The key columns were selected to match the rows, and removed again since the request did not ask for them.
      expect(Object.keys(owners.result[0] ?? {})).to.deep.equal(['charge_id', 'rental'])
    })

    it('a hasMany with a declared limit loads its top N per parent by the tuple, and a composite hasOne its lowest key', async () => {
      const rental = map['rental'] as TableDefinition
      const topped: RelationMap = {
        ...map,
        rental: {
          ...rental,
          relations: {
            ...rental.relations,
            dearest: {
              type: 'hasMany',
              table: 'rental_charge',
              foreignKey: KEY,
              limit: 1,
              orders: [{ column: 'amount', direction: 'desc' }],
            },
            first_charge: { type: 'hasOne', table: 'rental_charge', foreignKey: KEY },
          },
        },
      }
      const { result, queries } = await countQueries(db, () =>
        rows(
          'rental',
          'with[0]=dearest&with[1]=first_charge&columns[0]=rental_id&orders[0][column]=rental_id&limit=500',
          topped,
        ),
      )
      expect(queries).to.have.length(3)
      const two = await countQueries(db, () =>
        rows('rental', 'with[0]=dearest&columns[0]=rental_id&orders[0][column]=rental_id&limit=2', topped),
      )
      snapshot('with hasMany top 1', ran(two.queries[1]))
      for (const row of result) {
        const own = charges.filter((charge) => charge.rental_id === row['rental_id'])
        const dearest = [...own].sort((a, b) => b.amount - a.amount || b.charge_id - a.charge_id).slice(0, 1)
        expect(ids(row['dearest'] as Row[], 'charge_id')).to.deep.equal(dearest.map((charge) => charge.charge_id))
        const first = row['first_charge'] as Row | null
        expect(first === null ? null : Number(first['charge_id'])).to.equal(own[0]?.charge_id ?? null)
      }

      const ordered = await rows(
        'rental',
        'orders[0][column]=first_charge.amount&orders[0][direction]=desc&orders[1][column]=rental_id&columns[0]=rental_id&limit=500',
        topped,
      )
      const amountOf = (id: number): number => charges.find((charge) => charge.rental_id === id)?.amount ?? -1
      const byAmount = [...new Set(charges.map((charge) => charge.rental_id))]
      const expected = Array.from({ length: 120 }, (_, index) => index + 1).sort(
        (a, b) => (byAmount.includes(b) ? amountOf(b) : -1) - (byAmount.includes(a) ? amountOf(a) : -1) || a - b,
      )
      // NULLs (rentals without a charge) sort as the smallest values: last in a descending order.
      expect(ids(ordered, 'rental_id')).to.deep.equal(expected)
    })

    it('counts and declared aggregates over the composite hasMany: selected, filtered and ordered', async () => {
      const rental = map['rental'] as TableDefinition
      const summed: RelationMap = {
        ...map,
        rental: {
          ...rental,
          aggregates: { chargesAmountMax: { relation: 'rental_charges', fn: 'max', column: 'amount' } },
        },
      }
      const query = applyQueryParams(
        db('rental'),
        parseQueryParams(
          'with[0]=rental_chargesCount&with[1]=chargesAmountMax&wheres[0][column]=rental_chargesCount&wheres[0][operator]=%3E%3D' +
            '&wheres[0][value]=2&orders[0][column]=chargesAmountMax&orders[0][direction]=desc&orders[1][column]=rental_id' +
            '&columns[0]=rental_id&limit=500',
        ),
        summed,
      )
      snapshot('aggregates over hasMany', query)
      const actual = (await query) as Row[]
      const byRental = new Map<number, { count: number; max: number }>()
      for (const charge of charges) {
        const entry = byRental.get(charge.rental_id) ?? { count: 0, max: 0 }
        entry.count += 1
        entry.max = Math.max(entry.max, charge.amount)
        byRental.set(charge.rental_id, entry)
      }
      const expected = [...byRental]
        .filter(([, { count }]) => count >= 2)
        .sort(([a, left], [b, right]) => right.max - left.max || a - b)
      expect(ids(actual, 'rental_id')).to.deep.equal(expected.map(([id]) => id))
      expect(actual.map((row) => row['rental_charges_count'])).to.deep.equal(expected.map(([, { count }]) => count))
      expect(actual.map((row) => Number(row['charges_amount_max']).toFixed(2))).to.deep.equal(
        expected.map(([, { max }]) => max.toFixed(2)),
      )

      const counted = await countQueries(db, async () => {
        const loaded = await rows('rental_charge', 'with[0]=rental.rental_chargesCount&columns[0]=charge_id&limit=500')
        return loaded
      })
      expect(counted.queries).to.have.length(3)
      for (const charge of counted.result) {
        const owner = charge['rental'] as Row
        expect(owner['rental_charges_count']).to.equal(byRental.get(Number(owner['rental_id']))?.count)
      }
    })

    it('a guard on the related table applies through the composite key: filters, exists, with, counts and orders', async () => {
      const guarded: RelationMap = {
        ...map,
        rental_charge: {
          ...(map['rental_charge'] as TableDefinition),
          guard: (query, { table }) => {
            query.whereNot(`${table}.kind`, 'damage')
          },
        },
      }
      expect(
        await rows('rental', 'wheres[0][column]=rental_charges.kind&wheres[0][value]=damage', guarded),
      ).to.deep.equal([])
      const loaded = await rows(
        'rental',
        'with[0]=rental_charges&with[1]=rental_chargesCount&columns[0]=rental_id&orders[0][column]=rental_id&limit=500',
        guarded,
      )
      for (const rental of loaded) {
        const visible = charges.filter((charge) => charge.rental_id === rental['rental_id'] && charge.kind !== 'damage')
        expect(ids(rental['rental_charges'] as Row[], 'charge_id')).to.deep.equal(
          visible.map((charge) => charge.charge_id),
        )
        expect(rental['rental_charges_count']).to.equal(visible.length)
      }
      const existing = await rows(
        'rental',
        'relations_exists[0]=rental_charges&columns[0]=rental_id&limit=500',
        guarded,
      )
      expect(existing).to.have.length(new Set(charges.filter((c) => c.kind !== 'damage').map((c) => c.rental_id)).size)
    })
  })
}
