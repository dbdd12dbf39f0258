import { QueryParamsError } from '../errors/query-params-error.ts'
import { isRawObject, type RawValue } from './raw-value.ts'

/** One element of a client list, with the index the client sent (`null` for a bare scalar). */
export interface ListItem {
  index: string | null
  value: RawValue
}

/** The list position a key stands for (`0`, `1`, … `9999999999999999`, no leading zeros), or -1. */
function indexOf(key: string): number {
  const length = key.length
  if (length === 0 || length > 16 || (length > 1 && key.charCodeAt(0) === 48)) return -1
  for (let i = 0; i < length; i++) {
    const code = key.charCodeAt(i)
    if (code < 48 || code > 57) return -1
  }
  return Number(key)
}

/**
 * Reads a client list in any form it arrives in: an array, an object keyed by index (what bracket
 * indices decode to, and what `qs` gives past its `arrayLimit`), or a single scalar. Items come
 * back in index order; a non-numeric index is `invalid_syntax`.
 */
export function readList(value: RawValue, param: string): ListItem[] {
  if (value === undefined) return []
  if (Array.isArray(value)) return value.map((item: RawValue, position) => ({ index: String(position), value: item }))
  if (!isRawObject(value)) return [{ index: null, value }]
  const items: ListItem[] = []
  let previous = -1
  let ordered = true
  for (const key of Object.keys(value)) {
    const position = indexOf(key)
    if (position === -1) {
      throw new QueryParamsError(
        `Parameter '${param}[${key}]' is not a list index; expected ${param}[0], ${param}[1], ….`,
        {
          code: 'invalid_syntax',
          param: `${param}[${key}]`,
        },
      )
    }
    if (position < previous) ordered = false
    previous = position
    items.push({ index: key, value: value[key] })
  }
  return ordered ? items : items.sort((a, b) => Number(a.index) - Number(b.index))
}
