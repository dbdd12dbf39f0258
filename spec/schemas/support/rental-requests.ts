import fc from 'fast-check'
import type { RelationMap } from '../../../lib/index.ts'
import { RENTALS_RATINGS } from '../../../fixtures/rentals/create-rentals.ts'

/** One request of the rentals suite: the resource and the query string the client sends. */
export interface RentalRequest {
  table: string
  query: string
}

/** Hand-picked requests, one per habit of the schema: each was a wrong row, a wrong value or a 500 before issue 30. */
export const RENTAL_REQUESTS: readonly RentalRequest[] = [
  { table: 'language', query: 'orders[0][column]=language_id' },
  { table: 'language', query: 'wheres[0][column]=name&wheres[0][value]=Mandarin' },
  {
    table: 'language',
    query:
      'wheres[0][column]=name&wheres[0][operator]=in&wheres[0][value][0]=Mandarin&wheres[0][value][1]=English&orders[0][column]=language_id',
  },
  { table: 'language', query: 'wheres[0][column]=name&wheres[0][operator]=like&wheres[0][value]=mandarin' },
  {
    table: 'film',
    query:
      'wheres[0][column]=rating&wheres[0][operator]=like&wheres[0][value]=PG%25&orders[0][column]=film_id&columns[0]=film_id&columns[1]=rating',
  },
  {
    table: 'film',
    query:
      'wheres[0][column]=rating&wheres[0][operator]=%3E&wheres[0][value]=NC-17&orders[0][column]=film_id&columns[0]=film_id&columns[1]=rating',
  },
  {
    table: 'film',
    query:
      'wheres[0][column]=rating&wheres[0][operator]=in&wheres[0][value][0]=G&wheres[0][value][1]=R&orders[0][column]=film_id&limit=5',
  },
  { table: 'film', query: 'wheres[0][column]=rating&wheres[0][value]=XXX' },
  {
    table: 'film',
    query: 'wheres[0][column]=language.name&wheres[0][value]=Japanese&with[0]=language&orders[0][column]=film_id',
  },
  {
    table: 'film',
    query:
      'wheres[0][column]=last_update&wheres[0][operator]=%3E%3D&wheres[0][value]=2024-06-01&orders[0][column]=last_update&orders[0][direction]=desc&limit=5',
  },
  {
    table: 'actor',
    query: 'wheres[0][column]=films.film_id&wheres[0][value]=7&with[0]=films&orders[0][column]=actor_id',
  },
  { table: 'category', query: 'relations_exists[0]=films&with[0]=films&orders[0][column]=category_id&limit=3' },
  {
    table: 'rental',
    query:
      'wheres[0][column]=rental_date&wheres[0][operator]=%3E&wheres[0][value]=2024-11-01&orders[0][column]=rental_date&with[0]=film',
  },
  { table: 'rental', query: 'wheres[0][column]=return_date&wheres[0][value]&orders[0][column]=rental_id&limit=4' },
  {
    table: 'payment',
    query:
      'wheres[0][column]=payment_date&wheres[0][operator]=between&wheres[0][value][0]=2024-06-20&wheres[0][value][1]=2024-07-10T12:00:00Z&orders[0][column]=payment_id',
  },
  {
    table: 'payment',
    query:
      'wheres[0][column]=amount&wheres[0][operator]=%3E&wheres[0][value]=4.99&with[0]=film&orders[0][column]=payment_id&limit=5',
  },
  {
    table: 'film',
    query:
      'with[0]=actors&with[1]=categories&with[2]=language&orders[0][column]=title&orders[1][column]=film_id&limit=6&page=2',
  },
]

const WORDS = [
  'ACADEMY',
  'DINOSAUR',
  'ACE',
  'GOLDFINGER',
  'ADAPTATION',
  'HOLES',
  'English',
  'Mandarin',
  'Action',
  'Drama',
  'PENELOPE',
  'GUINESS',
  'Dog',
]

type Part = readonly [string, string]

const text = fc.constantFrom(...WORDS)
const pattern = fc.oneof(
  text.map((word) => `${word}%`),
  text.map((word) => `%${word.slice(1, 4)}%`),
  text,
)
const day = fc.integer({ min: 0, max: 365 }).map((days) => new Date(Date.UTC(2024, 0, 1) + days * 86_400_000))
const instant = fc.oneof(
  day.map((date) => date.toISOString().slice(0, 10)),
  fc
    .tuple(day, fc.integer({ min: 0, max: 86_399 }))
    .map(([date, s]) => new Date(date.getTime() + s * 1000).toISOString()),
)
const integer = fc.integer({ min: -1, max: 200 }).map(String)
const decimal = fc.constantFrom('0', '0.99', '1.99', '2.99', '4', '4.99', '10.99', '11')

function specOf(
  map: RelationMap,
  table: string,
  column: string,
): { type: string; values?: readonly string[]; sortable?: boolean } {
  const spec = map[table]?.columns[column]
  return spec === undefined ? { type: 'string' } : typeof spec === 'string' ? { type: spec } : spec
}

/** A where on `column` (`table`'s) with an operator and value(s) its declared type takes, as query-string parts. */
function where(map: RelationMap, table: string, column: string, path: string): fc.Arbitrary<Part[]> {
  const { type, values } = specOf(map, table, column)
  const value =
    values !== undefined
      ? fc.constantFrom(...values)
      : type === 'string'
        ? text
        : type === 'datetime'
          ? instant
          : type === 'decimal'
            ? decimal
            : integer
  const ordered = values !== undefined ? fc.constantFrom(...RENTALS_RATINGS) : value
  const operators: Array<fc.Arbitrary<Part[]>> = [
    fc.tuple(fc.constantFrom('=', '!='), value).map(([operator, v]) => [
      ['operator', operator],
      ['value', v],
    ]),
    fc.tuple(fc.constantFrom('=', '!='), fc.constant(null)).map(([operator]) => [
      ['operator', operator],
      ['value', 'null'],
    ]),
    fc
      .tuple(fc.constantFrom('in', 'notIn'), fc.array(value, { minLength: 1, maxLength: 3 }))
      .map(([operator, list]) => [['operator', operator], ...list.map((v, i): Part => [`value][${i}`, v])]),
  ]
  if (type !== 'string' || values !== undefined) {
    operators.push(
      fc.tuple(fc.constantFrom('<', '<=', '>', '>='), ordered).map(([operator, v]) => [
        ['operator', operator],
        ['value', v],
      ]),
    )
    operators.push(
      fc.tuple(fc.constantFrom('between', 'notBetween'), ordered, ordered).map(([operator, a, b]) => [
        ['operator', operator],
        ['value][0', a],
        ['value][1', b],
      ]),
    )
  }
  if (type === 'string')
    operators.push(
      pattern.map((p): Part[] => [
        ['operator', 'like'],
        ['value', p],
      ]),
    )
  return fc.oneof(...operators).map((parts) => [['column', path], ...parts])
}

/**
 * Random valid requests on `map` (the rentals map as the generator writes it): wheres on the base table's columns
 * and on columns of related tables, with operators and values their types take, relation existence, eager loading,
 * orders on sortable columns ending with the primary key (so that every database gives one order), pages.
 */
export function randomRentalRequest(map: RelationMap): fc.Arbitrary<RentalRequest> {
  const tables = Object.keys(map)
  return fc.constantFrom(...tables).chain((table) => {
    const definition = map[table]
    const columns = Object.keys(definition?.columns ?? {})
    const relations = Object.entries(definition?.relations ?? {}).filter(([, relation]) => relation.type !== 'morphTo')
    const relatedWhere = relations.flatMap(([name, relation]) =>
      'table' in relation
        ? Object.keys(map[relation.table]?.columns ?? {}).map((column) =>
            where(map, relation.table, column, `${name}.${column}`),
          )
        : [],
    )
    const oneWhere = fc.oneof(
      ...columns.map((column) => where(map, table, column, column)),
      ...(relatedWhere.length > 0 ? [fc.oneof(...relatedWhere)] : []),
    )
    const sortable = columns.filter((column) => specOf(map, table, column).sortable !== false)
    const key = definition?.primaryKey ?? 'id'
    const keys = typeof key === 'string' ? [key] : [...key]
    const names = relations.map(([name]) => name)
    return fc
      .record({
        wheres: fc.array(fc.tuple(oneWhere, fc.constantFrom('and', 'or')), { maxLength: 3 }),
        orders: fc.array(fc.tuple(fc.constantFrom(...sortable), fc.constantFrom('asc', 'desc')), { maxLength: 2 }),
        with:
          names.length > 0 ? fc.subarray(names, { maxLength: Math.min(2, names.length) }) : fc.constant<string[]>([]),
        exists: names.length > 0 ? fc.subarray(names, { maxLength: 1 }) : fc.constant<string[]>([]),
        limit: fc.option(fc.integer({ min: 1, max: 15 }), { nil: undefined }),
        page: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      })
      .map((request) => {
        const parts: string[] = []
        request.wheres.forEach(([conditions, boolean], index) => {
          for (const [name, value] of conditions) parts.push(`wheres[${index}][${name}]=${encodeURIComponent(value)}`)
          if (boolean === 'or') parts.push(`wheres[${index}][boolean]=or`)
        })
        const orders = [
          ...request.orders.filter(([column]) => !keys.includes(column)),
          ...keys.map((column) => [column, 'asc'] as const),
        ]
        orders.forEach(([column, direction], index) =>
          parts.push(`orders[${index}][column]=${column}`, `orders[${index}][direction]=${direction}`),
        )
        request.with.forEach((name, index) => parts.push(`with[${index}]=${name}`))
        request.exists.forEach((name, index) => parts.push(`relations_exists[${index}]=${name}`))
        if (request.limit !== undefined) parts.push(`limit=${request.limit}`)
        if (request.limit !== undefined && request.page !== undefined) parts.push(`page=${request.page}`)
        return { table, query: parts.join('&') }
      })
  })
}
