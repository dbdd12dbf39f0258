import type { QueryParamKey, QueryParams } from '../query-params.ts'

const SOURCE = Symbol('knex-query-params.source')

/** How the client spelled what `parseQueryParams` normalised: top-level keys and list indices. */
export interface ParamSource {
  keys: Partial<Record<QueryParamKey, string>>
  indices: Partial<Record<QueryParamKey, ReadonlyArray<string | null>>>
  valueIndices: Record<number, ReadonlyArray<string | null>>
}

type WithSource = QueryParams & { [SOURCE]?: ParamSource }

/** Records, invisibly, how the client spelled `params`, for error paths. */
export function attachSource(params: QueryParams, source: ParamSource): QueryParams {
  Object.defineProperty(params, SOURCE, { value: source, enumerable: false })
  return params
}

/**
 * The bracket path of a parameter as the client sent it, e.g. `paramPath(p, 'wheres', 2, 'operator')`
 * → `wheres[2][operator]`, `relations_exists[0]` for a snake_case client. Params built by hand
 * (no recorded source) get camelCase keys and their list positions.
 */
export function paramPath(
  params: QueryParams,
  key: QueryParamKey,
  index?: number,
  field?: string,
  valueIndex?: number,
): string {
  const source = (params as WithSource)[SOURCE]
  let path = source?.keys[key] ?? key
  if (index === undefined) return path
  const sent = source?.indices[key]?.[index]
  if (sent !== null) path += `[${sent ?? index}]`
  if (field === undefined) return path
  path += `[${field}]`
  if (valueIndex === undefined) return path
  const sentValue = source?.valueIndices[index]?.[valueIndex]
  return sentValue === null ? path : `${path}[${sentValue ?? valueIndex}]`
}
