/**
 * `knex-query-params/introspect`: the relation map from the database. Read a schema, generate a map from it,
 * and check a map against the database it serves.
 *
 * @example
 * import { checkRelationMap, introspectRelationMap } from 'knex-query-params/introspect'
 */
export { readSchema } from './introspect/read-schema.ts'
export type {
  ReadSchemaOptions,
  CheckRelationMapOptions,
  Naming,
  RelationMapFromSchemaOptions,
} from './introspect/options.ts'
export type { SchemaColumn, SchemaForeignKey, SchemaSnapshot, SchemaTable } from './dialect/schema/schema-snapshot.ts'
export { checkRelationMap } from './introspect/check-relation-map.ts'
export { RELATION_MAP_PROBLEM_LEVELS } from './introspect/relation-map-problem.ts'
export type {
  RelationMapProblem,
  RelationMapProblemKind,
  RelationMapProblemLevel,
} from './introspect/relation-map-problem.ts'
export { relationMapFromSchema } from './introspect/relation-map-from-schema.ts'
export type { GeneratedRelationMap } from './introspect/relation-map-from-schema.ts'
export { introspectRelationMap, introspectRelationMapWithNotices } from './introspect/introspect-relation-map.ts'
export type { IntrospectOptions } from './introspect/introspect-relation-map.ts'
export { DEFAULT_SECRET_COLUMNS, KNEX_MIGRATION_TABLES } from './introspect/options.ts'
export type { IntrospectionNotice, IntrospectionNoticeKind } from './introspect/introspection-notice.ts'
