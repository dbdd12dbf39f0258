import { expect } from 'chai'
import knex from 'knex'
import { applyQueryParams, defineRelationMap, parseQueryParams, type RelationMap } from '../../lib/index.ts'
import { openApiDocument, type OpenApiDocument } from '../../lib/openapi.ts'
import { describeEagerLoading } from '../../lib/cli/describe-eager-loading.ts'
import { APPLY_DEFAULTS, withDefaults } from '../../lib/options.ts'
import { validateQueryParams } from '../../lib/validate/validate-query-params.ts'

/** A rental keyed by (rental_id, rental_date), and charges referencing it by both columns. */
function rentalMap(): Record<string, Record<string, unknown>> {
  return {
    rental: {
      primaryKey: ['rental_id', 'rental_date'],
      columns: { rental_id: 'integer', rental_date: 'datetime', film_id: 'integer' },
      relations: {
        charges: { type: 'hasMany', table: 'rental_charge', foreignKey: ['rental_id', 'rental_date'] },
      },
    },
    rental_charge: {
      primaryKey: 'charge_id',
      columns: { charge_id: 'integer', rental_id: 'integer', rental_date: 'datetime', amount: 'decimal' },
      relations: {
        rental: { type: 'belongsTo', table: 'rental', foreignKey: ['rental_id', 'rental_date'], required: true },
      },
    },
  }
}

const define = (map: Record<string, Record<string, unknown>>): unknown =>
  defineRelationMap(map as unknown as RelationMap)

/** `rentalMap()` with one relation definition of `table` replaced. */
function withRelation(
  table: string,
  name: string,
  definition: Record<string, unknown>,
): Record<string, Record<string, unknown>> {
  const map = rentalMap()
  const entry = map[table] as { relations: Record<string, unknown> }
  entry.relations[name] = definition
  return map
}

describe('relation map: composite keys (foreignKey, ownerKey and localKey as lists of columns)', () => {
  it('accepts composite keys on belongsTo, hasOne and hasMany, named on both sides or defaulting to a composite primary key', () => {
    expect(() => define(rentalMap())).to.not.throw()
    expect(() =>
      define(
        withRelation('rental_charge', 'rental', {
          type: 'belongsTo',
          table: 'rental',
          foreignKey: ['rental_id', 'rental_date'],
          ownerKey: ['rental_id', 'rental_date'],
        }),
      ),
    ).to.not.throw()
    expect(() =>
      define(
        withRelation('rental', 'first_charge', {
          type: 'hasOne',
          table: 'rental_charge',
          foreignKey: ['rental_id', 'rental_date'],
          localKey: ['rental_id', 'rental_date'],
        }),
      ),
    ).to.not.throw()
  })

  it('a length mismatch, a string on one side and a list on the other, a list of one, a repeated column: a plain Error naming the path', () => {
    const cases: Array<[Record<string, Record<string, unknown>>, string]> = [
      [
        withRelation('rental_charge', 'rental', {
          type: 'belongsTo',
          table: 'rental',
          foreignKey: ['rental_id', 'rental_date'],
          ownerKey: ['rental_id'],
        }),
        'knex-query-params: rental_charge.relations.rental.ownerKey: expected a column name, or the columns of a ' +
          "composite key (two or more, e.g. ['rental_id', 'rental_date']), got a list of 1",
      ],
      [
        withRelation('rental_charge', 'rental', {
          type: 'belongsTo',
          table: 'rental',
          foreignKey: ['rental_id', 'rental_date'],
          ownerKey: ['rental_id', 'rental_date', 'film_id'],
        }),
        'knex-query-params: rental_charge.relations.rental.ownerKey: foreignKey names 2 columns and ownerKey 3; the ' +
          'columns of a composite key are paired in order, so name as many on each side',
      ],
      [
        withRelation('rental', 'charges', {
          type: 'hasMany',
          table: 'rental_charge',
          foreignKey: ['rental_id', 'rental_date'],
          localKey: 'rental_id',
        }),
        'knex-query-params: rental.relations.charges.localKey: foreignKey is a composite key of 2 columns, so ' +
          "localKey must be a list of as many columns, got 'rental_id'",
      ],
      [
        withRelation('rental', 'charges', {
          type: 'hasMany',
          table: 'rental_charge',
          foreignKey: 'rental_id',
          localKey: ['rental_id', 'rental_date'],
        }),
        'knex-query-params: rental.relations.charges.localKey: foreignKey is one column, so localKey must be one ' +
          'column too, got an array',
      ],
      [
        withRelation('rental', 'charges', {
          type: 'hasMany',
          table: 'rental_charge',
          foreignKey: ['rental_id', 'rental_id'],
        }),
        "knex-query-params: rental.relations.charges.foreignKey[1]: 'rental_id' is named twice in the key",
      ],
      [
        withRelation('rental', 'charges', { type: 'hasMany', table: 'rental_charge', foreignKey: ['rental_id', 7] }),
        'knex-query-params: rental.relations.charges.foreignKey[1]: expected a column name, got 7',
      ],
      [
        // A composite foreign key left without its other side defaults to a primary key of as many columns.
        withRelation('rental', 'films', {
          type: 'belongsTo',
          table: 'rental_charge',
          foreignKey: ['film_id', 'rental_id'],
        }),
        'knex-query-params: rental.relations.films.ownerKey: missing; it would default to the primary key of ' +
          'rental_charge (charge_id), but foreignKey names 2 columns: name the 2 columns it references, in order',
      ],
      [
        // A one-column key still cannot default to a composite primary key.
        withRelation('rental', 'charges', { type: 'hasMany', table: 'rental_charge', foreignKey: 'rental_id' }),
        'knex-query-params: rental.relations.charges.localKey: missing; it would default to the composite primary ' +
          'key of rental (rental_id, rental_date), and a relation links through one column: name it',
      ],
    ]
    for (const [map, message] of cases) expect(() => define(map), message).to.throw(Error, message)
  })

  it('a composite key takes the client name of an aliased column nowhere: the database column, named by its index', () => {
    const map = rentalMap()
    ;(map['rental_charge'] as { columns: Record<string, unknown> }).columns = {
      charge_id: 'integer',
      rentalId: { type: 'integer', column: 'rental_id' },
      rental_date: 'datetime',
    }
    ;(map['rental_charge'] as { relations: Record<string, unknown> }).relations = {
      rental: { type: 'belongsTo', table: 'rental', foreignKey: ['rentalId', 'rental_date'] },
    }
    expect(() => define(map)).to.throw(
      Error,
      "knex-query-params: rental_charge.relations.rental.foreignKey[0]: 'rentalId' is the client name of " +
        "rental_charge.rental_id; relation keys name database columns, here 'rental_id'",
    )
  })

  it("the explain CLI's eager-loading lines name the key as a tuple", () => {
    const map = define(rentalMap()) as RelationMap
    const plan = validateQueryParams(
      parseQueryParams('with[0]=rental.charges'),
      'rental_charge',
      map,
      withDefaults(APPLY_DEFAULTS, {}),
    )
    expect(describeEagerLoading(plan.with)).to.deep.equal([
      'rental (belongsTo): from rental where (rental.rental_id, rental.rental_date) in ((rental_charge.rental_id, ' +
        'rental_charge.rental_date) of the rows)',
      '  charges (hasMany): from rental_charge where (rental_charge.rental_id, rental_charge.rental_date) in ' +
        '((rental.rental_id, rental.rental_date) of the rows)',
    ])
  })

  it('OpenAPI lists the paths through composite relations, and applyQueryParams accepts every one it lists', () => {
    const map = define(rentalMap()) as RelationMap
    const document: OpenApiDocument = openApiDocument(map, {
      relationPathDepth: 2,
      resources: [
        { path: '/charges', table: 'rental_charge' },
        { path: '/rentals', table: 'rental' },
      ],
    })
    const schema = (name: string): Record<string, unknown> => {
      const found = document.components.schemas[name]
      if (found === undefined) throw new Error(`no schema ${name}`)
      return found as Record<string, unknown>
    }
    const enumOf = (name: string): string[] => (schema(name)['items'] as { enum: string[] }).enum
    const orders = (schema('rental_charge.query.orders')['items'] as { properties: { column: { enum: string[] } } })
      .properties.column.enum
    expect(enumOf('rental_charge.query.with')).to.include.members(['rental', 'rental.charges'])
    expect(enumOf('rental.query.relations_exists')).to.include('charges')
    expect(orders).to.include.members(['rental.film_id', 'rental.rental_date'])
    const db = knex({ client: 'pg' })
    for (const value of orders) {
      const query = `orders[0][column]=${value}&orders[0][direction]=desc`
      expect(() => applyQueryParams(db('rental_charge'), parseQueryParams(query), map).toSQL(), query).to.not.throw()
    }
    for (const value of enumOf('rental_charge.query.with')) {
      expect(() =>
        applyQueryParams(db('rental_charge'), parseQueryParams(`with[0]=${value}`), map).toSQL(),
      ).to.not.throw()
    }
  })
})
