import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RawObject, RawValue } from './raw-value.ts'
import { keyInfo, keySegments } from './key-segments.ts'

/**
 * A key whose name is sent in brackets, read as `qs` reads it: `[columns][0]` → `columns[0]`,
 * `[with]` → `with`. As in qs, the name's brackets count as a level of `depth`. A key that cannot be
 * read so (`[]`, `[[a]]`, `[a`, `[a]b`) is `invalid_syntax`, whatever the mode.
 */
export function withoutLeadingBracket(key: string, depth: number): string {
  const close = key.indexOf(']')
  const name = close === -1 ? '' : key.slice(1, close)
  const rest = key.slice(close + 1)
  if (name === '' || name.includes('[') || (rest !== '' && rest.charCodeAt(0) !== 91)) {
    throw new QueryParamsError(
      `Parameter '${key}' is not a valid bracket key: a key must start with a name, as in 'with[0]'.`,
      {
        code: 'invalid_syntax',
        param: key,
      },
    )
  }
  let levels = 1
  for (let at = rest.indexOf('['); at !== -1; at = rest.indexOf('[', at + 1)) levels++
  if (levels > depth) {
    throw new QueryParamsError(`Parameter '${key}' is nested deeper than ${depth} levels.`, {
      code: 'limit_exceeded',
      param: key,
    })
  }
  return name + rest
}

type Mutable = { [key: string]: RawValue }

/**
 * Builds, pair by pair, the nested object that `key=value` pairs describe, as
 * `qs.parse(s, { strictNullHandling: true })` does for the bracket-index grammar: `a[0][b]=1` →
 * `{ a: { 0: { b: '1' } } }` (index-keyed objects; callers turn them into lists), a repeated key
 * collects its values into a list, `a[]` appends. As in qs, a pair is dropped when a segment of its key
 * names a property of `Object.prototype` (`__proto__`, `constructor`, `toString`…). Where qs would
 * quietly guess — a key that is both a value and an object (`a=1&a[b]=2`), `a[]` mixed with explicit
 * keys of the same object — it is `invalid_syntax` instead. A key sent as `[name][…]` is read as
 * `name[…]`, as in qs. Pairs whose top-level name fails `keep` are
 * skipped unread.
 */
export class RawObjectBuilder {
  readonly root: RawObject
  private readonly depth: number
  private readonly keep: ((name: string) => boolean) | undefined
  /** Objects filled by `a[]`, with their next index; created on the first `[]`. */
  private appended: Map<Mutable, number> | undefined
  /**
   * The object the last key's parent path (`wheres[0]`) led to. Clients send a where's fields one after
   * another, so the next key usually has the same parent and needs no walk from the root.
   */
  private lastParent: string | number = ''
  private lastNode: Mutable | undefined

  constructor(depth: number, keep?: (name: string) => boolean) {
    this.root = {}
    this.depth = depth
    this.keep = keep
  }

  /**
   * Adds one decoded pair; `value` is `null` for a key sent without `=`. An empty key is ignored; a key
   * sent as `[name][…]` is read as `name[…]`, as qs reads it (see {@link withoutLeadingBracket}).
   */
  add(sent: string, value: string | null): void {
    if (sent === '') return
    const key = sent.charCodeAt(0) === 91 ? withoutLeadingBracket(sent, this.depth) : sent
    const info = keyInfo(key)
    if (this.keep !== undefined && !this.keep(info.name)) return
    const segments = keySegments(info, this.depth)
    if (segments === null) return
    this.addSegments(segments, info.parent, value, sent)
  }

  /**
   * Adds one pair whose key is already split (see `canonicalKey`); keys with the same parent path must
   * give the same `parent` (a string or a number). `key` is only read for an error message.
   */
  addSegments(segments: readonly string[], parent: string | number, value: string | null, key: string): void {
    const last = segments.length - 1
    let node = this.root as Mutable
    if (last > 0 && parent === this.lastParent && this.lastNode !== undefined && this.appended === undefined)
      node = this.lastNode
    else {
      for (let i = 0; i < last; i++) node = this.child(node, segments[i] as string, key)
      if (last > 0) {
        this.lastParent = parent
        this.lastNode = node
      }
    }
    const name = segments[last] as string
    this.set(node, name === '' ? this.nextIndex(node, key) : this.explicit(node, name, key), value, key)
  }

  private child(node: Mutable, name: string, key: string): Mutable {
    const existing = node[this.explicit(node, name, key)]
    if (existing === undefined) {
      const child: Mutable = {}
      node[name] = child
      return child
    }
    if (typeof existing !== 'object' || existing === null || Array.isArray(existing)) throw conflict(key)
    return existing as Mutable
  }

  private set(node: Mutable, name: string, value: string | null, key: string): void {
    const existing = node[name]
    if (existing === undefined) node[name] = value
    else if (Array.isArray(existing)) (existing as RawValue[]).push(value)
    else if (typeof existing === 'object' && existing !== null) throw conflict(key)
    else node[name] = [existing, value]
  }

  private explicit(node: Mutable, name: string, key: string): string {
    if (this.appended?.has(node) === true) throw mixed(key)
    return name
  }

  private nextIndex(node: Mutable, key: string): string {
    this.appended ??= new Map()
    let next = this.appended.get(node)
    if (next === undefined) {
      if (Object.keys(node).length > 0) throw mixed(key)
      next = 0
    }
    this.appended.set(node, next + 1)
    return String(next)
  }
}

/**
 * Builds the raw object of a sequence of decoded `key=value` pairs (see {@link RawObjectBuilder}).
 */
export function buildRawObject(
  pairs: Iterable<readonly [string, string | null]>,
  depth: number,
  keep?: (name: string) => boolean,
): RawObject {
  const builder = new RawObjectBuilder(depth, keep)
  for (const [key, value] of pairs) builder.add(key, value)
  return builder.root
}

function conflict(key: string): QueryParamsError {
  return new QueryParamsError(`Parameter '${key}' is sent both as a value and as an object.`, {
    code: 'invalid_syntax',
    param: key,
  })
}

function mixed(key: string): QueryParamsError {
  return new QueryParamsError(`Parameter '${key}' mixes '[]' (append) with explicit keys of the same list.`, {
    code: 'invalid_syntax',
    param: key,
  })
}
