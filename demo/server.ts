import { buildApp } from './app.ts'
import { listenOrExplain } from './listen.ts'
import { logDestination } from './pretty-log.ts'
import { connectDatabase } from './database.ts'
import { ForeignDatabaseError } from '../fixtures/foreign-database-error.ts'
import { prepareDatabase } from './prepare-database.ts'
import { checkDemoMap } from './check-demo-map.ts'
import { MapMismatchError, describeProblem } from './map-mismatch-error.ts'
import { demoRelationMap } from './relation-map.ts'

/**
 * `npm run demo`: migrates (and, when empty, seeds) the database of `DATABASE_URL` — by default the
 * SQLite file `demo.sqlite` — unless it holds tables the demo did not create (then it exits 1, saying
 * so, having written nothing), checks the relation map against the schema (`checkRelationMap`: an
 * error-level problem lists every problem and exits 1, warnings are logged), and serves the demo API on `PORT` (default 3000) of `HOST` (default
 * `localhost`), logging every request in one line: pretty in a terminal, JSON lines otherwise. A busy
 * port is reported in one line saying to set PORT, without a stack. Each read may take 1 s on the database. Ctrl-C stops
 * it.
 */
const db = connectDatabase(process.env.DATABASE_URL)
const refuse = async (error: unknown): Promise<never> => {
  await db.destroy()
  if (!(error instanceof ForeignDatabaseError || error instanceof MapMismatchError)) throw error
  console.error(error.message)
  process.exit(1)
}
const { seeded } = await prepareDatabase(db).catch(refuse)
const mapWarnings = await checkDemoMap(db, demoRelationMap).catch(refuse)
const app = buildApp({
  db,
  logger: { level: 'info', stream: logDestination(process.stdout) },
  corsOrigin: process.env.CORS_ORIGIN ?? '*',
  // Every read is bounded: stopped after 1 s (503), or on SQLite refused before it runs where it could not be stopped.
  timeout: 1000,
  ...(process.env.CURSOR_SECRET === undefined ? {} : { cursorSecret: process.env.CURSOR_SECRET }),
})
app.addHook('onClose', async () => {
  await db.destroy()
})
const port = Number(process.env.PORT ?? 3000)
if (!(await listenOrExplain(app, port, process.env.HOST ?? 'localhost'))) {
  await app.close()
  process.exit(1)
}
for (const problem of mapWarnings) app.log.warn(`relation map: ${describeProblem(problem)}`)
app.log.info(
  `${seeded ? 'seeded the fixtures; ' : ''}database: ${process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === '' ? 'demo.sqlite' : process.env.DATABASE_URL.replace(/\/\/[^@/]*@/, '//…@')}`,
)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  })
}
