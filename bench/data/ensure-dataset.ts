import knex, { type Knex } from 'knex'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { migrate, resetDatabase } from '../../fixtures/migrate.ts'
import { DATASET_VERSION, type DatasetSpec } from './dataset-spec.ts'
import { generationSql } from './generation-sql.ts'

/** Where cached SQLite data sets live (git-ignored). */
export const CACHE_DIRECTORY = fileURLToPath(new URL('../.cache/', import.meta.url))

/** A data set ready to query. */
export interface BenchDatabase {
  dialect: 'sqlite' | 'postgres'
  /** e.g. `sqlite bench/.cache/large.sqlite` or `postgres 127.0.0.1:5432/bench_large`. */
  label: string
  knex: Knex
}

const META_TABLE = 'bench_dataset'

/** PostgreSQL `date` as `YYYY-MM-DD` text, as SQLite returns it (and as the demo does). */
const pgTypes: Knex.PgCustomTypesConfig = {
  getTypeParser: (oid: number, format: string): unknown =>
    oid === pg.types.builtins.DATE ? (value: string) => value : pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text'),
}

function fingerprint(spec: DatasetSpec): string {
  return `${DATASET_VERSION}:${spec.teams}/${spec.users}/${spec.posts}/${spec.comments}`
}

async function isCurrent(db: Knex, spec: DatasetSpec): Promise<boolean> {
  if (!(await db.schema.hasTable(META_TABLE))) return false
  const row: unknown = await db(META_TABLE).first('fingerprint')
  return typeof row === 'object' && row !== null && 'fingerprint' in row && row.fingerprint === fingerprint(spec)
}

/** Rebuilds the schema from `migrations/` (so the indexes are those a migration creates) and generates the rows. */
async function generate(db: Knex, dialect: 'sqlite' | 'postgres', spec: DatasetSpec, log: (line: string) => void): Promise<void> {
  const start = performance.now()
  await db.schema.dropTableIfExists(META_TABLE)
  await resetDatabase(db)
  await migrate(db)
  if (dialect === 'sqlite') {
    await db.raw('pragma foreign_keys = off')
    await db.raw('pragma journal_mode = off')
    await db.raw('pragma synchronous = off')
  }
  await db.transaction(async (trx) => {
    // The rows are consistent by construction; skip per-row foreign key checks while loading.
    if (dialect === 'postgres') await trx.raw('set local session_replication_role = replica')
    for (const statement of generationSql(dialect, spec)) await trx.raw(statement)
  })
  if (dialect === 'sqlite') {
    await db.raw('pragma journal_mode = delete')
    await db.raw('pragma foreign_keys = on')
  }
  await db.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze')
  await db.schema.createTable(META_TABLE, (table) => table.string('fingerprint'))
  await db(META_TABLE).insert({ fingerprint: fingerprint(spec) })
  log(`  generated ${spec.name} on ${dialect} (${spec.users} users, ${spec.posts} posts, ${spec.comments} comments) in ${((performance.now() - start) / 1000).toFixed(1)} s`)
}

function sqliteDatabase(spec: DatasetSpec): BenchDatabase {
  mkdirSync(CACHE_DIRECTORY, { recursive: true })
  const filename = `${CACHE_DIRECTORY}${spec.name}.sqlite`
  return {
    dialect: 'sqlite',
    label: `sqlite bench/.cache/${spec.name}.sqlite`,
    knex: knex({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true, pool: { min: 1, max: 1 } }),
  }
}

/** The database `bench_<name>` on the server of `url`, created (through `url`'s own database) if missing. */
async function postgresDatabase(url: string, spec: DatasetSpec): Promise<BenchDatabase> {
  const name = `bench_${spec.name}`
  const admin = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } })
  try {
    const found = await admin.raw('select 1 from pg_database where datname = ?', [name])
    if ((found as { rows: unknown[] }).rows.length === 0) await admin.raw('create database ??', [name])
  } finally {
    await admin.destroy()
  }
  const target = new URL(url)
  target.pathname = `/${name}`
  return {
    dialect: 'postgres',
    label: `postgres ${target.host}/${name}`,
    knex: knex({ client: 'pg', connection: { connectionString: target.toString(), types: pgTypes }, pool: { min: 0, max: 8 } }),
  }
}

/**
 * Opens the data set `spec` on SQLite (a file under `bench/.cache/`) or on the PostgreSQL server of `url`
 * (its own database, `bench_<name>`, so the test suite's tables are never touched), generating it
 * first unless an identical one is cached there.
 */
export async function ensureDataset(
  dialect: 'sqlite' | 'postgres',
  spec: DatasetSpec,
  url: string | undefined,
  log: (line: string) => void,
): Promise<BenchDatabase> {
  if (dialect === 'postgres' && url === undefined) throw new Error('ensureDataset: PostgreSQL needs DATABASE_URL')
  const database = dialect === 'sqlite' ? sqliteDatabase(spec) : await postgresDatabase(url ?? '', spec)
  if (await isCurrent(database.knex, spec)) {
    log(`  ${spec.name} data set on ${dialect}: cached (${database.label})`)
  } else {
    await generate(database.knex, dialect, spec, log)
  }
  return database
}
