import fc from 'fast-check'
import qs from 'qs'
import { OPERATORS } from '../../../lib/query-params.ts'

/** A request object encoded as the reference client encodes it (qs with indices, values only, `null` bare). */
export const stringifyLikeTheClient = (params: object): string =>
  qs.stringify(params, {
    arrayFormat: 'indices',
    strictNullHandling: true,
    indices: true,
    encodeValuesOnly: true,
    charset: 'utf-8',
  })

/** How large a generated request may be: the most items per list, and the largest `limit`. */
export interface RequestSizes {
  readonly wheres: number
  readonly values: number
  readonly lists: number
  readonly orders: number
  readonly limit: number
}

/**
 * Request objects in the client's format with any texts in them: `wheres` of every operator and some that are not,
 * list values, orders, the list parameters, `limit`/`page`/`offset`, and the `extra` keys given.
 * `text` draws the texts, `names` the column and relation names tried beside them.
 */
export function clientRequests(
  text: fc.Arbitrary<string>,
  names: readonly string[],
  sizes: RequestSizes,
  extra: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  const scalar = scalarOf(text)
  const name = fc.oneof(fc.constantFrom(...names), text)
  const where = fc.record(
    {
      column: name,
      operator: fc.oneof(fc.constantFrom(...OPERATORS, 'LIKE', 'not in', '<>'), text),
      value: fc.oneof(scalar, fc.array(scalar, { maxLength: sizes.values })),
      boolean: fc.constantFrom('and', 'or', 'OR', 'AND', 'xor'),
    },
    { requiredKeys: ['column'] },
  )
  const order = fc.record(
    { column: name, direction: fc.constantFrom('asc', 'desc', 'DESC', 'up') },
    { requiredKeys: [] },
  )
  const list = fc.array(name, { maxLength: sizes.lists })
  return fc.record(
    {
      wheres: fc.array(where, { maxLength: sizes.wheres }),
      columns: list,
      with: list,
      scopes: list,
      relations_exists: list,
      relationsExists: list,
      orders: fc.array(order, { maxLength: sizes.orders }),
      distinct: list,
      limit: fc.oneof(fc.nat(sizes.limit), text),
      page: fc.oneof(fc.nat(50), text),
      offset: fc.nat(1000),
      ...extra,
    },
    { requiredKeys: [] },
  )
}

/** `null`, a boolean, a small integer or a text. */
export const scalarOf = (text: fc.Arbitrary<string>): fc.Arbitrary<string | number | boolean | null> =>
  fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 100_000 }), text)
