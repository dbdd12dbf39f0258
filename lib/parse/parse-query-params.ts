import { QueryParamsError } from '../errors/query-params-error.ts'
import { PARSE_DEFAULTS, withDefaults, type ParseOptions } from '../options.ts'
import type { QueryParamKey, QueryParams } from '../query-params.ts'
import { attachSource, type ParamSource } from './param-source.ts'
import { PARAMETER_KEYS } from './parameter-keys.ts'
import { parseInteger, parseNames, parseOrder } from './parse-values.ts'
import { parseWhere } from './parse-where.ts'
import { parseCursor } from './parse-cursor.ts'
import type { RawObject } from './raw-value.ts'
import { readInput, type QueryParamsInput } from './read-input.ts'
import { readClientQuery } from './read-client-query.ts'
import { readList } from './read-list.ts'
import { parseSearch } from './parse-search.ts'

type NameKey = 'columns' | 'with' | 'scopes' | 'relationsExists' | 'distinct'

const isParameterKey = (name: string): boolean => PARAMETER_KEYS.has(name)

/**
 * Parses a client's list query into validated {@link QueryParams}. Accepts the raw query string (with
 * or without `?`, or a URL path like `/users?…`), `URLSearchParams`, an object whose keys still carry
 * brackets (`node:querystring`, Express 5, Fastify), or an object already parsed by `qs`. Keys may be
 * camelCase or snake_case. A key sent without `=` is `null`. Shapes are checked here (operators,
 * booleans, directions, whole numbers, caps); columns and relations are checked by `applyQueryParams`.
 *
 * @throws {QueryParamsError} status 400 with a stable `code` and the `param` path the client sent.
 * @example
 * const params = parseQueryParams('wheres[0][column]=name&wheres[0][operator]=like&wheres[0][value]=a%25&limit=10')
 * // { wheres: [{ column: 'name', operator: 'like', value: 'a%', boolean: 'and' }], limit: 10 }
 */
export function parseQueryParams(input: QueryParamsInput, options: ParseOptions = {}): QueryParams {
  const settings = withDefaults(PARSE_DEFAULTS, options)
  if (typeof input === 'string') {
    const read = readClientQuery(input, settings)
    if (read !== undefined) return read
  }
  const keep = settings.strict ? undefined : isParameterKey
  return paramsOfRaw(readInput(input, settings.depth, settings.parameterLimit, keep), settings)
}

/**
 * The general reader's second half: the params of a raw object (see `parseQueryString`, `readInput`), its shapes and
 * caps checked. Every input that the fused reader (`readClientQuery`) does not take goes through it.
 */
export function paramsOfRaw(raw: RawObject, settings: Required<ParseOptions>): QueryParams {
  const params: QueryParams = {}
  const source: ParamSource = { keys: {}, indices: {}, valueIndices: {} }
  for (const sent of Object.keys(raw)) {
    const key = PARAMETER_KEYS.get(sent)
    if (key === undefined) {
      if (settings.strict) {
        throw new QueryParamsError(`Parameter '${sent}' is not a query parameter.`, {
          code: 'unknown_parameter',
          param: sent,
          allowed: [...new Set(PARAMETER_KEYS.values())],
        })
      }
      continue
    }
    if (source.keys[key] !== undefined) {
      throw new QueryParamsError(`Parameter '${key}' is sent twice, as '${source.keys[key]}' and as '${sent}'.`, {
        code: 'invalid_syntax',
        param: sent,
      })
    }
    source.keys[key] = sent
    readKey(params, source, key, sent, raw, settings)
  }
  return attachSource(params, source)
}

function readKey(
  params: QueryParams,
  source: ParamSource,
  key: QueryParamKey,
  sent: string,
  raw: RawObject,
  settings: Required<ParseOptions>,
): void {
  const value = raw[sent]
  switch (key) {
    case 'wheres': {
      const items = readList(value, sent)
      if (items.length > settings.maxWheres) {
        throw new QueryParamsError(`Parameter '${sent}' has more than ${settings.maxWheres} conditions.`, {
          code: 'limit_exceeded',
          param: sent,
        })
      }
      params.wheres = items.map((item, position) => {
        const { where, valueIndices } = parseWhere(
          item.value,
          item.index === null ? sent : `${sent}[${item.index}]`,
          settings,
        )
        source.valueIndices[position] = valueIndices
        return where
      })
      source.indices.wheres = items.map((item) => item.index)
      return
    }
    case 'orders': {
      const items = readList(value, sent)
      capList(items.length, settings.maxListItems, sent, 'orders')
      params.orders = items.map((item) => parseOrder(item.value, item.index === null ? sent : `${sent}[${item.index}]`))
      source.indices.orders = items.map((item) => item.index)
      return
    }
    case 'offset':
      params.offset = parseInteger(value, sent, 0)
      return
    case 'limit':
    case 'page':
      params[key] = parseInteger(value, sent, 1)
      return
    case 'search': {
      const text = parseSearch(value, sent, settings.maxSearchLength, settings.maxSearchWords)
      if (text !== undefined) params.search = text
      return
    }
    case 'cursor':
      params.cursor = parseCursor(value, sent)
      return
    default: {
      const { names, indices } = parseNames(value, sent)
      if (key !== 'with' && key !== 'relationsExists') capList(names.length, settings.maxListItems, sent, 'entries')
      params[key satisfies NameKey] = names
      source.indices[key] = indices
    }
  }
}

/**
 * `limit_exceeded` when a list parameter has more than `max` entries. `with` has its own cap (`maxWith`), and so
 * has `relationsExists` (`maxRelationFilters`, which is lower), so that neither shadows the other.
 */
function capList(length: number, max: number, sent: string, what: string): void {
  if (length > max) {
    throw new QueryParamsError(`Parameter '${sent}' has more than ${max} ${what}.`, {
      code: 'limit_exceeded',
      param: sent,
    })
  }
}
