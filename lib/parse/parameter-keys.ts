import type { QueryParamKey } from '../query-params.ts'

/** Every spelling of every query parameter, camelCase and snake_case, to its canonical key. */
export const PARAMETER_KEYS: ReadonlyMap<string, QueryParamKey> = new Map<string, QueryParamKey>([
  ['wheres', 'wheres'],
  ['columns', 'columns'],
  ['with', 'with'],
  ['scopes', 'scopes'],
  ['relationsExists', 'relationsExists'],
  ['relations_exists', 'relationsExists'],
  ['orders', 'orders'],
  ['distinct', 'distinct'],
  ['offset', 'offset'],
  ['limit', 'limit'],
  ['page', 'page'],
  ['search', 'search'],
  ['cursor', 'cursor'],
])

/**
 * The name before the first bracket of a key: `wheres` for `wheres[0][column]`, `with` for `[with][0]` (as qs reads
 * it).
 */
export function topLevelName(key: string): string {
  if (key.charCodeAt(0) === 91) {
    const close = key.indexOf(']')
    return close === -1 ? '' : key.slice(1, close)
  }
  const open = key.indexOf('[')
  return open === -1 ? key : key.slice(0, open)
}
