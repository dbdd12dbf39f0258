import { QueryParamsError } from '../errors/query-params-error.ts'

/** The `unknown_relation` error for `name` on `table`, listing the relations the client may use. */
export function unknownRelation(param: string, name: string, table: string, allowed: Iterable<string>): QueryParamsError {
  return new QueryParamsError(`Parameter '${param}': '${name}' is not a relation of ${table}.`, {
    code: 'unknown_relation',
    param,
    allowed: [...allowed],
  })
}
