import type { Knex } from 'knex'
import type { DialectOptions } from '../dialect/dialect-options.ts'
import type { RelationMap } from '../relation-map.ts'
import { readSchema } from './read-schema.ts'
import type { ReadSchemaOptions, RelationMapFromSchemaOptions } from './options.ts'
import { relationMapFromSchema, type GeneratedRelationMap } from './relation-map-from-schema.ts'
import { sampleDatetimeStorage } from './sample-datetime-storage.ts'

/**
 * What {@link introspectRelationMap} reads and generates: the builder's options, which schema to read, and the
 * `dialect` of a knex client the library does not list.
 */
export interface IntrospectOptions extends RelationMapFromSchemaOptions, DialectOptions {
  /** The PostgreSQL schema or MySQL database to read (see `ReadSchemaOptions.schema`); default the connection's own. */
  schema?: string
  /** Read views as resources too (see `ReadSchemaOptions.views`); default `false`. */
  views?: boolean
}

/**
 * Reads the schema of `db` (SQLite, PostgreSQL, MySQL/MariaDB; see `readSchema`) and builds its relation
 * map with {@link relationMapFromSchema}, returning the map and the notices (what was left out or renamed,
 * and why): what the `introspect` command prints in the generated file's header.
 *
 * @example
 * const { map, notices } = await introspectRelationMapWithNotices(db, { naming: 'camel' })
 * for (const notice of notices) console.warn(notice.message)
 */
export async function introspectRelationMapWithNotices(
  db: Knex,
  options: IntrospectOptions = {},
): Promise<GeneratedRelationMap> {
  const { schema, dialect, views, ...builderOptions } = options
  const read: ReadSchemaOptions = {}
  if (views === true) read.views = true
  if (schema !== undefined) read.schema = schema
  if (dialect !== undefined) read.dialect = dialect
  // knex's migration tables are read only when asked for by name; `exclude` is applied (and reported) by the builder.
  if (options.tables !== undefined)
    read.tables = options.tables.filter((table) => !(options.exclude ?? []).includes(table))
  const generated = relationMapFromSchema(await readSchema(db, read), builderOptions)
  await sampleDatetimeStorage(db, generated.map, generated.notices)
  return generated
}

/**
 * The relation map of the database `db` is connected to, read from its schema: columns with their types,
 * nullability and uniqueness, primary keys, and relations from its foreign keys (see
 * {@link relationMapFromSchema} for the rules). Columns whose names look secret are left out. Meant to
 * start a map that is then reviewed and committed (the `introspect` command writes it to a file), or for
 * prototypes that serve a schema as it is.
 *
 * @example
 * const relationMap = await introspectRelationMap(db, { exclude: ['audit_log'] })
 * const rows = await applyQueryParams(db('users'), params, relationMap)
 */
export async function introspectRelationMap(db: Knex, options: IntrospectOptions = {}): Promise<RelationMap> {
  return (await introspectRelationMapWithNotices(db, options)).map
}
