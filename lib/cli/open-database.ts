import knex, { type Knex } from 'knex'
import { oneLine, UsageError } from './cli-io.ts'

/** knex's own logging off: a failed connection is reported once, as a usage error. */
const QUIET = { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined }

/**
 * A knex instance on `config`'s database, checked with `select 1`. `where` names the database in errors,
 * without its password.
 *
 * @throws {UsageError} `The database driver 'mysql2' is not installed: npm install mysql2` when knex cannot
 *   load the client's driver; `Cannot open the database <where>: …` when it cannot connect.
 * @example
 * const db = await openDatabase(readOnlyConfig(url), 'postgres://…@localhost/app')
 */
export async function openDatabase(config: Knex.Config, where: string): Promise<Knex> {
  let db: Knex
  try {
    db = knex({ ...config, log: QUIET })
  } catch (error) {
    throw missingDriver(error) ?? new UsageError(`Cannot open the database ${where}: ${oneLine(error)}`)
  }
  try {
    await db.raw('select 1')
  } catch (error) {
    await db.destroy()
    throw new UsageError(`Cannot open the database ${where}: ${oneLine(error)}`)
  }
  return db
}

/** knex's "run `npm install <driver>`" as a usage error naming the package, else `undefined`. */
function missingDriver(error: unknown): UsageError | undefined {
  const driver = /npm install (\S+)/.exec(error instanceof Error ? error.message : '')?.[1]
  if (driver === undefined) return undefined
  return new UsageError(`The database driver '${driver}' is not installed: npm install ${driver}`)
}
