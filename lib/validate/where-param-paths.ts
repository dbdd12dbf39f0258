import { paramPath } from '../parse/param-source.ts'
import type { QueryParams } from '../query-params.ts'
import type { WhereParams } from './build-test.ts'

/**
 * Where the parts of `wheres[index]` were sent, worked out only when asked for — in practice only for
 * an error message. A class rather than an object literal with getters, which is slow to create.
 */
export class WhereParamPaths implements WhereParams {
  private readonly params: QueryParams
  private readonly index: number

  constructor(params: QueryParams, index: number) {
    this.params = params
    this.index = index
  }

  get column(): string {
    return paramPath(this.params, 'wheres', this.index, 'column')
  }

  get operator(): string {
    return paramPath(this.params, 'wheres', this.index, 'operator')
  }

  value(valueIndex?: number): string {
    return paramPath(this.params, 'wheres', this.index, 'value', valueIndex)
  }
}
