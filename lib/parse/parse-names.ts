import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RawValue } from './raw-value.ts'
import { readList } from './read-list.ts'

/** A list of names (`columns`, `with`, `scopes`, `relationsExists`, `distinct`) with the indices the client sent. */
export function parseNames(value: RawValue, param: string): { names: string[]; indices: Array<string | null> } {
  const names: string[] = []
  const indices: Array<string | null> = []
  for (const item of readList(value, param)) {
    const path = item.index === null ? param : `${param}[${item.index}]`
    if (typeof item.value !== 'string' || item.value.trim() === '') {
      throw new QueryParamsError(`Parameter '${path}' must be a non-empty name.`, { code: 'invalid_value', param: path })
    }
    names.push(item.value.trim())
    indices.push(item.index)
  }
  return { names, indices }
}
