/**
 * The program of a SQLite reader process (see `sqlite-reader-pool.ts`), run as `node -e <source> <driver path>
 * <settings JSON>`. It opens the database file read-only with the same better-sqlite3 the caller's knex loaded, then
 * answers one statement at a time over the IPC channel (advanced serialization: Buffers and BigInts arrive as they
 * left): `{ id, rows }`, `{ id, error }`, or `{ id, caller: true }` when the statement must run on the caller's
 * connection (it does not compile here, e.g. it names a function registered there, or it is not a read-only query).
 * Plain JavaScript, so that it runs from the TypeScript source and from `dist/` alike.
 */
export const SQLITE_READER_SOURCE = `'use strict' // knex-query-params: SQLite reader
const [driverPath, settingsText] = process.argv.slice(1)
const settings = JSON.parse(settingsText)
const Database = require(driverPath)
let db
try {
  db = new Database(settings.file, {
    readonly: true,
    fileMustExist: true,
    timeout: settings.busyTimeout,
    nativeBinding: settings.nativeBinding,
  })
  db.defaultSafeIntegers(settings.safeIntegers)
} catch (error) {
  process.send({ failed: String(error && error.message) }, () => process.exit(1))
}
if (db !== undefined) {
  const statements = new Map()
  process.on('disconnect', () => process.exit(0))
  process.on('message', ({ id, sql, bindings, safeIntegers }) => {
    let statement = statements.get(sql)
    if (statement === undefined) {
      try {
        statement = db.prepare(sql)
      } catch {
        process.send({ id, caller: true })
        return
      }
      if (!statement.reader || !statement.readonly) {
        process.send({ id, caller: true })
        return
      }
      if (statements.size >= 100) statements.delete(statements.keys().next().value)
      statements.set(sql, statement)
    }
    let rows
    try {
      statement.safeIntegers(safeIntegers === undefined ? settings.safeIntegers : safeIntegers)
      rows = statement.all(bindings)
    } catch (error) {
      const { name, message, code } = error instanceof Error ? error : new Error(String(error))
      process.send({ id, error: { name, message, code } })
      return
    }
    process.send({ id, rows })
  })
  process.send({ ready: true })
}
`
