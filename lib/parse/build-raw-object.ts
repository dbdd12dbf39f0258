import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RawObject, RawValue } from './raw-value.ts'
import { topLevelName } from './parameter-keys.ts'
import { splitKey } from './split-key.ts'

type Mutable = Record<string, RawValue>

const forbidden = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Builds the nested object that `key=value` pairs describe, as `qs.parse(s, { strictNullHandling: true })`
 * does for the bracket-index grammar: `a[0][b]=1` → `{ a: { 0: { b: '1' } } }` (index-keyed objects;
 * callers turn them into lists), a repeated key collects its values into a list, `a[]` appends.
 * A key that is both a value and an object (`a=1&a[b]=2`) is `invalid_syntax`. Pairs whose top-level
 * name fails `keep` are skipped.
 */
export function buildRawObject(
  pairs: Iterable<readonly [string, string | null]>,
  depth: number,
  keep?: (name: string) => boolean,
): RawObject {
  const root: Mutable = Object.create(null) as Mutable
  for (const [key, value] of pairs) {
    if (key === '' || (keep !== undefined && !keep(topLevelName(key)))) continue
    const segments = splitKey(key, depth)
    let node = root
    for (let i = 0; i < segments.length - 1; i++) {
      node = childObject(node, segment(segments, i, node), key)
    }
    const last = segment(segments, segments.length - 1, node)
    if (forbidden.has(last)) continue
    const existing = node[last]
    if (existing === undefined) node[last] = value
    else if (Array.isArray(existing)) node[last] = [...(existing as RawValue[]), value]
    else if (typeof existing === 'object' && existing !== null) throw conflict(key)
    else node[last] = [existing, value]
  }
  return root
}

function segment(segments: readonly string[], index: number, node: Mutable): string {
  const name = segments[index] ?? ''
  return name === '' && index > 0 ? String(Object.keys(node).length) : name
}

function childObject(node: Mutable, name: string, key: string): Mutable {
  if (forbidden.has(name)) return Object.create(null) as Mutable
  const existing = node[name]
  if (existing === undefined) {
    const child = Object.create(null) as Mutable
    node[name] = child
    return child
  }
  if (typeof existing !== 'object' || existing === null || Array.isArray(existing)) throw conflict(key)
  return existing as Mutable
}

function conflict(key: string): QueryParamsError {
  return new QueryParamsError(`Parameter '${key}' is sent both as a value and as an object.`, { code: 'invalid_syntax', param: key })
}
