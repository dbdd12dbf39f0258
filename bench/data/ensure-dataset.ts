import knex, { type Knex } from 'knex'
import { mkdirSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { migrate } from '../../fixtures/migrate.ts'
import {
  openBenchDatabase,
  recreateBenchDatabase,
  redactUrl,
  benchDatabaseName,
  type BenchDialect,
  type BenchServers,
} from './bench-servers.ts'
import { DATASET_VERSION, type DatasetSpec } from './dataset-spec.ts'
import { generationSql } from './generation-sql.ts'

/** Where cached SQLite data sets live (git-ignored). */
export const CACHE_DIRECTORY = fileURLToPath(new URL('../.cache/', import.meta.url))

/** A data set ready to query. */
export interface BenchDatabase {
  dialect: BenchDialect
  /** e.g. `sqlite bench/.cache/large.sqlite` or `postgres 127.0.0.1:5432/kqp_bench_large`. */
  label: string
  knex: Knex
}

/** How to build one data set: its name, a fingerprint that changes with its shape, and the build itself. */
export interface DatasetRecipe {
  /** Names the SQLite file (`bench/.cache/<name>.sqlite`) and the server database (`kqp_bench_<name>`). */
  name: string
  fingerprint(dialect: BenchDialect): string
  /** Fills an empty database (schema, rows, indexes, statistics). */
  build(db: Knex, dialect: BenchDialect, log: (line: string) => void): Promise<void>
}

const META_TABLE = 'kqp_bench_dataset'

async function isCurrent(db: Knex, fingerprint: string): Promise<boolean> {
  if (!(await db.schema.hasTable(META_TABLE))) return false
  const row: unknown = await db(META_TABLE).first('fingerprint')
  return typeof row === 'object' && row !== null && 'fingerprint' in row && row.fingerprint === fingerprint
}

function sqliteKnex(filename: string): Knex {
  return knex({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true, pool: { min: 1, max: 1 } })
}

/** Settings for a bulk load on each database: no per-row foreign key or unique checks, no journal on SQLite. */
export async function bulkLoad(db: Knex, dialect: BenchDialect, statements: readonly string[]): Promise<void> {
  if (dialect === 'sqlite') {
    await db.raw('pragma foreign_keys = off')
    await db.raw('pragma journal_mode = off')
    await db.raw('pragma synchronous = off')
    for (const statement of statements) await db.raw(statement)
    await db.raw('pragma journal_mode = delete')
    await db.raw('pragma foreign_keys = on')
    return
  }
  await db.transaction(async (trx) => {
    // The rows are consistent by construction; skip per-row foreign key checks while loading.
    if (dialect === 'postgres') await trx.raw('set local session_replication_role = replica')
    if (dialect === 'mysql') {
      await trx.raw('set foreign_key_checks = 0')
      await trx.raw('set unique_checks = 0')
      await trx.raw('set @kqp_bench_sql_mode = @@sql_mode')
      await trx.raw(`set sql_mode = concat(@@sql_mode, ',PIPES_AS_CONCAT')`)
    }
    for (const statement of statements) await trx.raw(statement)
    if (dialect === 'mysql') {
      await trx.raw('set foreign_key_checks = 1')
      await trx.raw('set unique_checks = 1')
      await trx.raw('set sql_mode = @kqp_bench_sql_mode')
    }
  })
}

/** Fresh statistics: `VACUUM ANALYZE` (also sets the visibility map for index-only scans), `ANALYZE TABLE`, `ANALYZE`. */
export async function analyze(db: Knex, dialect: BenchDialect, tables: readonly string[]): Promise<void> {
  if (dialect === 'postgres') await db.raw('vacuum analyze')
  else if (dialect === 'mysql') await db.raw(`analyze table ${tables.join(', ')}`)
  else await db.raw('analyze')
}

/** The demo domain's data set `spec`: the schema of `migrations/` (their indexes), then set-based rows. */
export function demoRecipe(spec: DatasetSpec): DatasetRecipe {
  return {
    name: spec.name,
    fingerprint: () => `${DATASET_VERSION}:${spec.teams}/${spec.users}/${spec.posts}/${spec.comments}`,
    async build(db, dialect, log) {
      const start = performance.now()
      await migrate(db)
      await bulkLoad(db, dialect, generationSql(dialect, spec))
      await analyze(db, dialect, ['teams', 'users', 'posts', 'comments'])
      log(
        `  generated ${spec.name} on ${dialect} (${spec.users} users, ${spec.posts} posts, ${spec.comments} comments) in ${((performance.now() - start) / 1000).toFixed(1)} s`,
      )
    },
  }
}

async function finish(db: Knex, fingerprint: string): Promise<void> {
  await db.schema.createTable(META_TABLE, (table) => table.string('fingerprint', 200))
  await db(META_TABLE).insert({ fingerprint })
}

async function ensureSqlite(recipe: DatasetRecipe, log: (line: string) => void): Promise<BenchDatabase> {
  mkdirSync(CACHE_DIRECTORY, { recursive: true })
  const filename = `${CACHE_DIRECTORY}${recipe.name}.sqlite`
  const label = `sqlite bench/.cache/${recipe.name}.sqlite`
  const fingerprint = recipe.fingerprint('sqlite')
  let db = sqliteKnex(filename)
  if (await isCurrent(db, fingerprint)) {
    log(`  ${recipe.name} data set on sqlite: cached (${label})`)
    return { dialect: 'sqlite', label, knex: db }
  }
  await db.destroy()
  rmSync(filename, { force: true })
  db = sqliteKnex(filename)
  await recipe.build(db, 'sqlite', log)
  await finish(db, fingerprint)
  return { dialect: 'sqlite', label, knex: db }
}

async function ensureServer(
  dialect: 'postgres' | 'mysql',
  url: string,
  recipe: DatasetRecipe,
  log: (line: string) => void,
): Promise<BenchDatabase> {
  const label = `${dialect} ${new URL(url).host}/${benchDatabaseName(recipe.name)}`
  const fingerprint = recipe.fingerprint(dialect)
  let db = await openBenchDatabase(dialect, url, recipe.name)
  if (await isCurrent(db, fingerprint)) {
    log(`  ${recipe.name} data set on ${dialect}: cached (${label})`)
    return { dialect, label, knex: db }
  }
  log(`  ${recipe.name} data set on ${dialect}: (re)building ${benchDatabaseName(recipe.name)} on ${redactUrl(url)}`)
  db = await recreateBenchDatabase(dialect, url, recipe.name, db)
  await recipe.build(db, dialect, log)
  await finish(db, fingerprint)
  return { dialect, label, knex: db }
}

/**
 * Opens the data set of `recipe` on SQLite (a file under `bench/.cache/`) or on a server of `servers`
 * (its own database `kqp_bench_<name>`, created by the bench), building it first unless an identical one
 * is there. On a server, only a database the bench created is ever dropped and rebuilt.
 */
export async function ensureDataset(
  dialect: BenchDialect,
  recipe: DatasetRecipe,
  servers: BenchServers,
  log: (line: string) => void,
): Promise<BenchDatabase> {
  if (dialect === 'sqlite') return ensureSqlite(recipe, log)
  const url = servers[dialect]
  if (url === undefined)
    throw new Error(`ensureDataset: ${dialect} needs BENCH_${dialect === 'postgres' ? 'POSTGRES' : 'MYSQL'}_URL`)
  return ensureServer(dialect, url, recipe, log)
}
