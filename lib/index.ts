export { parseQueryParams } from './parse/parse-query-params.ts'
export type { QueryParamsInput } from './parse/read-input.ts'
export { applyQueryParams } from './apply/apply-query-params.ts'
export { loadRelations } from './eager-load/load-relations.ts'
export type { LoadRelationsOptions } from './eager-load/load-relations-options.ts'
export { QueryParamsError } from './errors/query-params-error.ts'
export { QueryTimeoutError } from './errors/query-timeout-error.ts'
export type { BoundOptions } from './bound/bound-options.ts'
export { columnType } from './validate/column-type.ts'
export { defineRelationMap } from './map/define-relation-map.ts'
export { primaryKeyColumns } from './map/primary-key-columns.ts'
export { databaseColumn } from './map/database-column.ts'
export { clientColumn } from './map/client-column.ts'
export type { ColumnRecord, ColumnValues, LoadedRelations, TableRecord } from './map/table-record.ts'
export type { QueryParamsErrorCode, QueryParamsErrorDetails } from './errors/query-params-error.ts'
export { OPERATORS } from './query-params.ts'
export type { BooleanOperator, ClientScalar, Direction, Operator, Order, QueryParamKey, QueryParams, WhereDescription } from './query-params.ts'
export type {
  BelongsToManyRelation,
  BelongsToRelation,
  ColumnDefinition,
  ColumnSpec,
  ColumnType,
  Guard,
  GuardInfo,
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
export { queryParamsFromRequest } from './http/query-params-from-request.ts'
export type { RequestParseOptions } from './http/query-params-from-request.ts'
export type { HeadersLike, RequestLike } from './http/request-like.ts'
export { isFormContentType } from './http/is-form-content-type.ts'
export { normalizeContentType } from './http/normalize-content-type.ts'
export { errorResponse } from './http/error-response.ts'
export type { ErrorResponse, ErrorResponseOptions, ProblemBody } from './http/error-response.ts'
export { paginate } from './http/paginate.ts'
export type { PageRequest, PaginateOptions, PaginateQueries, Paginated, PaginationMeta } from './http/paginate.ts'
export { countQuery } from './http/count-query.ts'
export { estimatedCount, ESTIMATE_THRESHOLD } from './http/estimated-count.ts'
export type { CountResult } from './http/estimated-count.ts'
export { problemResponse } from './http/problem-response.ts'
export { tooLargeResponse } from './http/too-large-response.ts'
export { serverProblemResponse } from './http/server-problem-response.ts'
export type { ServerProblemBody, ServerProblemResponse } from './http/server-problem-response.ts'
export { requestSignal } from './http/request-signal.ts'
export type { RequestSignalOptions, ResponseLike } from './http/request-signal.ts'
export type { TooLargeProblemBody, TooLargeResponse } from './http/too-large-response.ts'
export { handleClientError } from './http/handle-client-error.ts'
export type { ClientErrorSocket } from './http/handle-client-error.ts'
export { readFormBody } from './http/read-form-body.ts'
export { readsFormBody } from './http/reads-form-body.ts'
export { BodyTooLargeError } from './http/body-too-large-error.ts'
export { readSchema } from './introspect/read-schema.ts'
export type { ReadSchemaOptions } from './introspect/read-schema-options.ts'
export type { SchemaColumn, SchemaForeignKey, SchemaSnapshot, SchemaTable } from './introspect/schema-snapshot.ts'
export { checkRelationMap } from './introspect/check-relation-map.ts'
export type { CheckRelationMapOptions } from './introspect/check-relation-map-options.ts'
export { RELATION_MAP_PROBLEM_LEVELS } from './introspect/relation-map-problem.ts'
export type { RelationMapProblem, RelationMapProblemKind, RelationMapProblemLevel } from './introspect/relation-map-problem.ts'
export { relationMapFromSchema } from './introspect/relation-map-from-schema.ts'
export type { GeneratedRelationMap } from './introspect/relation-map-from-schema.ts'
export { introspectRelationMap, introspectRelationMapWithNotices } from './introspect/introspect-relation-map.ts'
export type { IntrospectOptions } from './introspect/introspect-relation-map.ts'
export { DEFAULT_SECRET_COLUMNS, KNEX_MIGRATION_TABLES } from './introspect/relation-map-from-schema-options.ts'
export type { Naming, RelationMapFromSchemaOptions } from './introspect/relation-map-from-schema-options.ts'
export type { IntrospectionNotice, IntrospectionNoticeKind } from './introspect/introspection-notice.ts'
