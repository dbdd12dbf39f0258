export { parseQueryParams } from './parse/parse-query-params.ts'
export type { QueryParamsInput } from './parse/read-input.ts'
export { applyQueryParams } from './apply/apply-query-params.ts'
export { loadRelations } from './eager-load/load-relations.ts'
export type { LoadRelationsOptions } from './eager-load/options.ts'
export { QueryParamsError } from './errors/query-params-error.ts'
export { QueryTimeoutError } from './errors/query-timeout-error.ts'
export { TransientDatabaseError } from './errors/transient-database-error.ts'
export type { TransientDatabaseReason } from './errors/transient-database-error.ts'
export { transientDatabaseError } from './dialect/transient-failure.ts'
export type { BoundOptions } from './bound/bound-options.ts'
export { columnType } from './map/columns.ts'
export { defineRelationMap } from './map/define-relation-map.ts'
export { clientColumn, databaseColumn, primaryKeyColumns } from './map/columns.ts'
export type { ColumnRecord, ColumnValues, JsonColumnValue, LoadedRelations, TableRecord } from './map/table-record.ts'
export type { AggregateRecord, SnakeCase } from './map/aggregate-record.ts'
export type { ContextOf, ContextOptions, NeedsContext } from './map/context-options.ts'
export type { QueryParamsErrorCode, QueryParamsErrorDetails } from './errors/query-params-error.ts'
export { OPERATORS } from './query-params.ts'
export type {
  BooleanOperator,
  ClientScalar,
  Direction,
  Operator,
  Order,
  QueryParamKey,
  QueryParams,
  WhereDescription,
} from './query-params.ts'
export type {
  AggregateDefinition,
  AggregateFunction,
  BelongsToManyRelation,
  BelongsToRelation,
  ColumnDefinition,
  ColumnSpec,
  ColumnType,
  DatetimeStorage,
  Guard,
  GuardInfo,
  HasRelation,
  MorphManyRelation,
  MorphToRelation,
  RelationDefinition,
  RelationKey,
  RelationMap,
  RelationOrder,
  RelationTopN,
  RelationType,
  Scope,
  SearchDefinition,
  SearchMode,
  TableDefinition,
} from './relation-map.ts'
export type { ApplyOptions, ParseOptions } from './options.ts'
export type { DialectName } from './dialect/dialect.ts'
export type { DialectOptions } from './dialect/dialect-options.ts'
export { configureSqliteReads } from './dialect/sqlite-read-settings.ts'
export type { SqliteReadSettings } from './dialect/sqlite-read-settings.ts'
export type { RowValues } from './normalize/row-values.ts'
export { paginate } from './read/paginate.ts'
export type { PageRequest, PaginateOptions, PaginateQueries, Paginated, PaginationMeta } from './read/paginate.ts'
export { cursorPaginate } from './read/cursor-paginate.ts'
export type { CursorMeta, CursorPaginated, CursorPaginateOptions, CursorRequest } from './read/cursor-paginate.ts'
export type { CursorSecret } from './cursor/cursor-secrets.ts'
export { cursorLinks } from './http/cursor-links.ts'
export type { CursorLinks } from './http/cursor-links.ts'
export { countQuery, estimatedCount, ESTIMATE_THRESHOLD } from './read/counts.ts'
export type { CountResult } from './read/counts.ts'

export {
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  queryParamsFromRequest,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type RequestParseOptions,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type HeadersLike,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type RequestLike,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  isFormContentType,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  normalizeContentType,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  errorResponse,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type ErrorResponse,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type ErrorResponseOptions,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type ProblemBody,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  problemResponse,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  tooLargeResponse,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type TooLargeProblemBody,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type TooLargeResponse,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  handleClientError,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  type ClientErrorSocket,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  readFormBody,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  readsFormBody,
  /** @deprecated Import it from `knex-query-params/http`; the root re-export goes in the next minor version. */
  BodyTooLargeError,
} from './http.ts'
export {
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  readSchema,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type ReadSchemaOptions,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type SchemaColumn,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type SchemaForeignKey,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type SchemaSnapshot,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type SchemaTable,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  checkRelationMap,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type CheckRelationMapOptions,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  RELATION_MAP_PROBLEM_LEVELS,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type RelationMapProblem,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type RelationMapProblemKind,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type RelationMapProblemLevel,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  relationMapFromSchema,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type GeneratedRelationMap,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  introspectRelationMap,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  introspectRelationMapWithNotices,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type IntrospectOptions,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  DEFAULT_SECRET_COLUMNS,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  KNEX_MIGRATION_TABLES,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type Naming,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type RelationMapFromSchemaOptions,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type IntrospectionNotice,
  /** @deprecated Import it from `knex-query-params/introspect`; the root re-export goes in the next minor version. */
  type IntrospectionNoticeKind,
} from './introspect.ts'
