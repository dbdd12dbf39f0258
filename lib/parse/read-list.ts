import { QueryParamsError } from '../errors/query-params-error.ts'
import { isRawObject, type RawValue } from './raw-value.ts'

/** One element of a client list, with the index the client sent (`null` for a bare scalar). */
export interface ListItem {
  index: string | null
  value: RawValue
}

const INDEX = /^(0|[1-9]\d{0,15})$/

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
  for (const key of Object.keys(value)) {
    if (!INDEX.test(key)) {
      throw new QueryParamsError(`Parameter '${param}[${key}]' is not a list index; expected ${param}[0], ${param}[1], ….`, {
        code: 'invalid_syntax',
        param: `${param}[${key}]`,
      })
    }
    items.push({ index: key, value: value[key] })
  }
  return items.sort((a, b) => Number(a.index) - Number(b.index))
}
