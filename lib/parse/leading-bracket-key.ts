import { QueryParamsError } from '../errors/query-params-error.ts'

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
    throw new QueryParamsError(`Parameter '${key}' is not a valid bracket key: a key must start with a name, as in 'with[0]'.`, {
      code: 'invalid_syntax',
      param: key,
    })
  }
  let levels = 1
  for (let at = rest.indexOf('['); at !== -1; at = rest.indexOf('[', at + 1)) levels++
  if (levels > depth) {
    throw new QueryParamsError(`Parameter '${key}' is nested deeper than ${depth} levels.`, { code: 'limit_exceeded', param: key })
  }
  return name + rest
}
