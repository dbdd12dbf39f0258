import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { clientOfUrl, CLIENT_LABELS, DIALECT_LABELS, readOnlyConfig } from './knex-config-for.ts'
import { introspectRelationMapWithNotices, type IntrospectOptions } from '../introspect/introspect-relation-map.ts'
import type { IntrospectArguments } from './cli-arguments.ts'
import { knexfileConfig } from './knexfile-config.ts'
import { openDatabase } from './open-database.ts'
import { oneLine, UsageError, type CliIo } from './cli-io.ts'
import { writeOutput } from './write-output.ts'
import { relationMapModule } from './relation-map-module.ts'

const hidePassword = (text: string): string => text.replace(/\/\/[^@/]*@/g, '//…@')

async function knexConfig(args: IntrospectArguments, cwd: string): Promise<Knex.Config> {
  const source = args.source
  if ('knexfile' in source) return knexfileConfig(source.knexfile, cwd, source.env)
  const name = clientOfUrl(source.connection)
  if (name === undefined)
    throw new UsageError(
      `Unknown database URL '${hidePassword(source.connection)}': expected postgres://…, mysql://…, or a SQLite ` +
        `file (sqlite:path, *.sqlite, *.db).`,
    )
  if (source.client !== undefined && source.client !== name)
    throw new UsageError(`--client ${source.client} does not match --connection, a ${CLIENT_LABELS[name]} database.`)
  return readOnlyConfig(source.connection)
}

/**
 * Generates the relation-map module of one database on an open connection: reads its schema, builds the
 * map, and writes the module to `args.out` (relative to `cwd`; a summary line on `io.out`) or, without
 * `out`, to `io.out`. Only reads the database.
 *
 * @throws {UsageError} when `tables`/`exclude`/`noInverse` name a table the database lacks, or the file cannot be
 * written.
 * @example
 * await introspectDatabase(db, { source: { connection: 'app.db' }, naming: 'camel', exposePivots: false }, io, process.cwd())
 */
export async function introspectDatabase(db: Knex, args: IntrospectArguments, io: CliIo, cwd: string): Promise<void> {
  const options: IntrospectOptions = { naming: args.naming, exposePivots: args.exposePivots }
  if (args.schema !== undefined) options.schema = args.schema
  if (args.tables !== undefined) options.tables = args.tables
  if (args.exclude !== undefined) options.exclude = args.exclude
  if (args.excludeColumns !== undefined) options.excludeColumns = args.excludeColumns
  if (args.noInverse !== undefined) options.noInverse = args.noInverse
  if (args.sortableIndexedOnly === true) options.sortableIndexedOnly = true
  if (args.views === true) options.views = true
  if ('knexfile' in args.source && args.source.dialect !== undefined) options.dialect = args.source.dialect
  const { map, notices } = await introspectRelationMapWithNotices(db, options).catch((error: unknown) => {
    // The CLI writes its own `knex-query-params: ` before the line.
    throw new UsageError(oneLine(error).replace(/^knex-query-params: /, ''))
  })
  const text = relationMapModule(map, notices, {
    database: DIALECT_LABELS[dialectOf(db.client as Knex.Client).name],
    options,
  })
  writeOutput(text, args.out, io, cwd, () => {
    const relations = Object.values(map).reduce((count, table) => count + Object.keys(table.relations ?? {}).length, 0)
    const notes = `${notices.length} notices (listed in its header)`
    return `Wrote ${args.out}: ${Object.keys(map).length} tables, ${relations} relations, ${notes}.`
  })
}

/**
 * `knex-query-params introspect`: connects to the database of `--connection` (SQLite opened read-only) or of
 * the knexfile, and runs {@link introspectDatabase}.
 *
 * @throws {UsageError} when the database cannot be opened, or see {@link introspectDatabase}.
 */
export async function introspectCommand(args: IntrospectArguments, io: CliIo, cwd: string): Promise<void> {
  const where = 'knexfile' in args.source ? `of ${args.source.knexfile}` : hidePassword(args.source.connection)
  const db = await openDatabase(await knexConfig(args, cwd), where)
  try {
    await introspectDatabase(db, args, io, cwd)
  } finally {
    await db.destroy()
  }
}
