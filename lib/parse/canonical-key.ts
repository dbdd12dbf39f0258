/** A key read by {@link canonicalKey}: its segments and an id of its parent path. */
export interface CanonicalKey {
  readonly segments: readonly string[]
  /** Equal for keys with the same parent path (`wheres[3]` for `wheres[3][column]` and `wheres[3][value]`). */
  readonly parent: number
}

const WHERE_FIELDS = ['column', 'operator', 'value', 'boolean'] as const
const ORDER_FIELDS = ['column', 'direction'] as const
const LISTS = ['with', 'scopes', 'columns', 'distinct', 'relations_exists', 'relationsExists'] as const
const MAX_INDEX_DIGITS = 6
const PARENT_WHERE = 1e7
const PARENT_WHERE_VALUE = 2e7
const PARENT_ORDER = 3e7
const PARENT_LIST = 4e7

/** Indices whose text is shared; a larger one (rarely sent) is written afresh, so nothing a client sends grows this. */
const SHARED_INDICES = 1024
const indexTexts: readonly string[] = Array.from({ length: SHARED_INDICES }, (_, index) => String(index))
/** The text of a list index, shared for the first {@link SHARED_INDICES}. */
export const indexText = (index: number): string => indexTexts[index] ?? String(index)

/**
 * Reads `text[start, end)` when it is a key exactly as the reference client writes one —
 * `wheres[i][column|operator|value|boolean]`, `wheres[i][value][j]`, `orders[i][column|direction]`,
 * `with[i]` (and the other name lists) with plain indices — without slicing or hashing it: the segments
 * are shared strings. Anything else (other keys, escapes, leading zeros, more segments than `depth`
 * allows) gives `undefined`, for the general reader. The segments are those `splitKey` gives.
 */
export function canonicalKey(text: string, start: number, end: number, depth: number): CanonicalKey | undefined {
  switch (text.charCodeAt(start)) {
    case 119: // w
      if (text.startsWith('wheres[', start)) return where(text, start + 7, end, depth)
      return list(text, start, end, depth, 0)
    case 111: // o
      if (!text.startsWith('orders[', start) || depth < 2) return undefined
      return fields(text, start + 7, end, 'orders', ORDER_FIELDS, PARENT_ORDER)
    case 115: // s
      return list(text, start, end, depth, 1)
    case 99: // c
      return list(text, start, end, depth, 2)
    case 100: // d
      return list(text, start, end, depth, 3)
    case 114: // r
      return list(text, start, end, depth, 4) ?? list(text, start, end, depth, 5)
    default:
      return undefined
  }
}

/** The list index written from `at` up to the next `]` (digits, no leading zero), or -1. */
export function readIndex(text: string, at: number, end: number): number {
  let index = 0
  let digits = 0
  for (let i = at; i < end; i++) {
    const code = text.charCodeAt(i)
    if (code === 93) return digits === 0 || (digits > 1 && text.charCodeAt(at) === 48) ? -1 : index
    if (code < 48 || code > 57 || ++digits > MAX_INDEX_DIGITS) return -1
    index = index * 10 + (code - 48)
  }
  return -1
}

function list(text: string, start: number, end: number, depth: number, which: number): CanonicalKey | undefined {
  const name = LISTS[which] as string
  if (depth < 1 || !text.startsWith(name, start) || text.charCodeAt(start + name.length) !== 91) return undefined
  const at = start + name.length + 1
  const index = readIndex(text, at, end)
  if (index === -1 || at + indexText(index).length + 1 !== end) return undefined
  return { segments: [name, indexText(index)], parent: PARENT_LIST + which }
}

function where(text: string, at: number, end: number, depth: number): CanonicalKey | undefined {
  if (depth < 2) return undefined
  const key = fields(text, at, end, 'wheres', WHERE_FIELDS, PARENT_WHERE)
  if (key !== undefined || depth < 3) return key
  // wheres[i][value][j]
  const index = readIndex(text, at, end)
  if (index === -1) return undefined
  const open = at + indexText(index).length + 1
  if (!text.startsWith('[value][', open)) return undefined
  const item = readIndex(text, open + 8, end)
  if (item === -1 || open + 8 + indexText(item).length + 1 !== end) return undefined
  return { segments: ['wheres', indexText(index), 'value', indexText(item)], parent: PARENT_WHERE_VALUE + index }
}

/** `<name>[i][<field>]` from `at` (just after `<name>[`), for one of `names`. */
function fields(
  text: string,
  at: number,
  end: number,
  name: string,
  names: readonly string[],
  parent: number,
): CanonicalKey | undefined {
  const index = readIndex(text, at, end)
  if (index === -1) return undefined
  const open = at + indexText(index).length + 1
  if (text.charCodeAt(open) !== 91 || text.charCodeAt(end - 1) !== 93) return undefined
  const length = end - open - 2
  for (const field of names) {
    if (field.length === length && text.startsWith(field, open + 1))
      return { segments: [name, indexText(index), field], parent: parent + index }
  }
  return undefined
}
