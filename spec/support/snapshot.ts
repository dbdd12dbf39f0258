import { expect } from 'chai'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { TestDatabaseName } from './databases.ts'

/** A recorded statement: its SQL with `?` placeholders, and its bindings as JSON values. */
export interface SqlSnapshot {
  sql: string
  bindings: unknown[]
}

/** What `toSQL()` of a knex builder or raw returns (or a list of them, for schema builders). */
export interface SqlLike {
  sql: string
  bindings?: readonly unknown[]
}

/** Anything with knex's `toSQL()`. */
export interface ToSql {
  toSQL(): SqlLike | readonly SqlLike[]
}

type Snapshot = SqlSnapshot | SqlSnapshot[]
type SnapshotFile = Record<string, Snapshot>

const SNAPSHOT_DIRECTORY = fileURLToPath(new URL('../__snapshots__/', import.meta.url))

const updateMode = (): string | undefined => {
  const value = process.env.UPDATE_SNAPSHOTS
  return value === undefined || value === '' || value === '0' ? undefined : value
}

const loaded = new Map<TestDatabaseName, SnapshotFile>()
const recorded = new Map<TestDatabaseName, Map<string, Snapshot>>()

function snapshotPath(db: TestDatabaseName): string {
  return `${SNAPSHOT_DIRECTORY}${db}.json`
}

function load(db: TestDatabaseName): SnapshotFile {
  let file = loaded.get(db)
  if (file === undefined) {
    try {
      file = JSON.parse(readFileSync(snapshotPath(db), 'utf8')) as SnapshotFile
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      file = {}
    }
    loaded.set(db, file)
  }
  return file
}

const toJsonValue = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value)

function reduce(sql: SqlLike): SqlSnapshot {
  const bindings = JSON.parse(JSON.stringify(sql.bindings ?? [], toJsonValue)) as unknown[]
  return { sql: sql.sql, bindings }
}

function isList(value: SqlLike | readonly SqlLike[]): value is readonly SqlLike[] {
  return Array.isArray(value)
}

/**
 * Asserts that `builder.toSQL()` (SQL and bindings; Dates as ISO strings) equals the snapshot `key` of
 * `spec/__snapshots__/<db>.json`. A missing or different snapshot fails; with `UPDATE_SNAPSHOTS=1` the
 * statement is recorded instead and written when the run ends (`UPDATE_SNAPSHOTS=prune` also drops keys
 * the run did not use — for full runs only).
 *
 * @example
 * expectSql(db.name, 'users where name like', applyQueryParams(db.knex('users'), params, relationMap))
 */
export function expectSql(db: TestDatabaseName, key: string, builder: ToSql): void {
  const statement = builder.toSQL()
  const actual: Snapshot = isList(statement) ? statement.map(reduce) : reduce(statement)
  const used = recorded.get(db) ?? new Map<string, Snapshot>()
  recorded.set(db, used)
  const earlier = used.get(key)
  if (earlier !== undefined) {
    expect(actual, `SQL snapshot key '${key}' (${db}) is used twice with different SQL`).to.deep.equal(earlier)
  }
  used.set(key, actual)
  if (updateMode() !== undefined) return

  const expected = load(db)[key]
  if (expected === undefined) {
    expect.fail(
      `No SQL snapshot '${key}' in spec/__snapshots__/${db}.json; run \`npm run snapshots:update\` to record it`,
    )
  }
  expect(
    actual,
    `SQL snapshot '${key}' (${db}) differs; if the change is intended, run \`npm run snapshots:update\``,
  ).to.deep.equal(expected)
}

/** In update mode, writes the snapshots recorded during the run (keys sorted, pretty-printed); else does nothing. */
export function writeSnapshots(): void {
  const mode = updateMode()
  if (mode === undefined) return
  mkdirSync(SNAPSHOT_DIRECTORY, { recursive: true })
  for (const [db, used] of recorded) {
    const merged: SnapshotFile = mode === 'prune' ? {} : { ...load(db) }
    for (const [key, snapshot] of used) merged[key] = snapshot
    const sorted: SnapshotFile = {}
    for (const key of Object.keys(merged).sort()) {
      const snapshot = merged[key]
      if (snapshot !== undefined) sorted[key] = snapshot
    }
    writeFileSync(snapshotPath(db), `${JSON.stringify(sorted, null, 2)}\n`)
    console.log(`  wrote ${used.size} SQL snapshot(s) to spec/__snapshots__/${db}.json`)
  }
}
