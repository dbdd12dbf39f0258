import { topLevelName } from './parameter-keys.ts'
import { splitKey } from './split-key.ts'

/**
 * A copy of `text` that shares no memory with it. V8 makes a slice of 13 characters or more a view into the
 * whole string, so a remembered slice of a request body would keep the whole body alive; a cache keyed by
 * client text keeps this copy instead. Shorter strings are copied by V8 already.
 */
export function copyText(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string)
}

/** A decoded key, read once: its top-level name and, once asked for, its segments. */
export interface KeyInfo {
  /** The key itself: for a remembered key, a copy that shares no memory with the request it came from. */
  readonly key: string
  /** The name before the first bracket: `wheres` for `wheres[0][column]`. */
  readonly name: string
  /** Segments for `depth` (see {@link splitKey}); `null` when the pair is dropped; `undefined` until split. */
  segments: readonly string[] | null | undefined
  depth: number
  /**
   * The key up to its last bracket segment (`wheres[0]` for `wheres[0][column]`), once split; `''` for a plain name.
   */
  parent: string
}

const objectPrototype: object = Object.prototype
const isPrototypeName = (name: string): boolean => Object.hasOwn(objectPrototype, name)

const MAX_CACHED_KEYS = 1024
/** Longest key remembered, in characters; a longer one is read afresh every time. */
const MAX_CACHED_KEY_LENGTH = 128
const cache = new Map<string, KeyInfo>()

/**
 * What is known about a decoded key. Clients send the same few keys (`wheres[0][column]`…) again and
 * again, so keys are remembered: at most {@link MAX_CACHED_KEYS} of them, each at most
 * {@link MAX_CACHED_KEY_LENGTH} characters, as copies (see {@link copyText}) — never slices of a request
 * body. Everything remembered (keys, names, parents, segments) stays under 1 MB whatever clients send.
 */
export function keyInfo(key: string): KeyInfo {
  let info = cache.get(key)
  if (info === undefined) {
    if (key.length > MAX_CACHED_KEY_LENGTH)
      return { key, name: topLevelName(key), segments: undefined, depth: -1, parent: '' }
    const own = copyText(key)
    if (cache.size >= MAX_CACHED_KEYS) cache.clear()
    info = { key: own, name: topLevelName(own), segments: undefined, depth: -1, parent: '' }
    cache.set(own, info)
  }
  return info
}

/**
 * The segments of a decoded key (see {@link splitKey}), or `null` when, as in qs, the pair must be
 * dropped because a segment names a property of `Object.prototype` (`__proto__`, `constructor`,
 * `toString`…). A key outside the grammar throws, every time it is read.
 */
export function keySegments(info: KeyInfo, depth: number): readonly string[] | null {
  if (info.segments !== undefined && info.depth === depth) return info.segments
  const { key } = info
  const split = splitKey(key, depth)
  info.segments = split.some(isPrototypeName) ? null : Object.freeze(split)
  info.depth = depth
  info.parent = split.length > 1 ? key.slice(0, key.lastIndexOf('[')) : ''
  return info.segments
}
