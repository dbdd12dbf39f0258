import { QueryParamsError } from '../errors/query-params-error.ts'

/**
 * Splits a bracket key into its segments: `wheres[0][value][1]` → `['wheres', '0', 'value', '1']`;
 * `with[]` gives an empty last segment (append). Keys outside this grammar are `invalid_syntax`
 * (including `[]` anywhere but at the end), and more than `depth` bracket segments are `limit_exceeded`.
 */
export function splitKey(key: string, depth: number): string[] {
  const open = key.indexOf('[')
  if (open === -1) return [key]
  if (open === 0) throw syntax(key, 'a key must start with a name before its brackets')
  const segments = [key.slice(0, open)]
  let at = open
  while (at < key.length) {
    if (key.charCodeAt(at) !== 91) throw syntax(key, `unexpected '${key[at] ?? ''}' after a ']'`)
    const close = key.indexOf(']', at + 1)
    if (close === -1) throw syntax(key, "a '[' is never closed")
    const segment = key.slice(at + 1, close)
    if (segment.includes('[')) throw syntax(key, 'brackets cannot nest inside a segment')
    if (segment === '' && close !== key.length - 1) throw syntax(key, "'[]' (append) can only end a key")
    segments.push(segment)
    at = close + 1
  }
  if (segments.length - 1 > depth) {
    throw new QueryParamsError(`Parameter '${key}' is nested deeper than ${depth} levels.`, {
      code: 'limit_exceeded',
      param: key,
    })
  }
  return segments
}

function syntax(key: string, why: string): QueryParamsError {
  return new QueryParamsError(`Parameter '${key}' is not a valid bracket key: ${why}.`, {
    code: 'invalid_syntax',
    param: key,
  })
}
