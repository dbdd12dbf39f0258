import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedSearch } from './planned-search.ts'
import type { PlannedOrder } from './resolve-order.ts'

/** The reserved order name of a `fulltext` search's relevance: `orders[0][column]=relevance`. */
export const RELEVANCE_ORDER = 'relevance'

/**
 * `orders[i][column]=relevance` on a table declaring a search (and no column of that name): an order by how well
 * each row matches the `fulltext` search, best first when `desc`, or `undefined` for any other name.
 *
 * @throws {QueryParamsError} `invalid_order` without a search text, or when the table's search is `contains`.
 */
export function resolveRelevanceOrder(
  map: RelationMap,
  table: string,
  name: string,
  direction: 'asc' | 'desc',
  search: PlannedSearch | undefined,
  param: () => string,
): PlannedOrder | undefined {
  const definition = map[table]
  if (name !== RELEVANCE_ORDER || definition?.search === undefined || Object.hasOwn(definition.columns, name))
    return undefined
  if (search?.fulltext === undefined) {
    const at = param()
    const reason =
      definition.search.mode === 'fulltext'
        ? 'needs a search text'
        : `needs a fulltext search, and ${table}'s is contains`
    throw new QueryParamsError(`Parameter '${at}': an order by relevance ${reason}.`, {
      code: 'invalid_order',
      param: at,
    })
  }
  return { via: [], column: '', direction, nullable: false, total: false, relevance: search }
}
