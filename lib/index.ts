export { parseQueryParams } from './parse/parse-query-params.ts'
export type { QueryParamsInput } from './parse/read-input.ts'
export { applyQueryParams } from './apply/apply-query-params.ts'
export { loadRelations } from './eager-load/load-relations.ts'
export { QueryParamsError } from './errors/query-params-error.ts'
export type { QueryParamsErrorCode, QueryParamsErrorDetails } from './errors/query-params-error.ts'
export { OPERATORS } from './query-params.ts'
export type { BooleanOperator, ClientScalar, Direction, Operator, Order, QueryParamKey, QueryParams, WhereDescription } from './query-params.ts'
export type {
  BelongsToManyRelation,
  BelongsToRelation,
  ColumnType,
  HasRelation,
  MorphManyRelation,
  MorphToRelation,
  RelationDefinition,
  RelationMap,
  RelationType,
  Scope,
  TableDefinition,
} from './relation-map.ts'
export type { ApplyOptions, ParseOptions } from './options.ts'
