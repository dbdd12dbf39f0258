import { buildApp } from '../demo/app.ts'
import { buildHandWrittenServer } from './baselines/hand-written-server.ts'
import { buildLibraryMinimalServer } from './baselines/library-minimal-server.ts'
import { EAGER_DATASET } from './data/dataset-spec.ts'
import { benchServers } from './data/bench-servers.ts'
import { demoRecipe, ensureDataset } from './data/ensure-dataset.ts'

/**
 * A server for the HTTP figure, run as its own process so the load generator does not share its event
 * loop: `tsx bench/http-server.ts demo|library|hand sqlite|postgres` serves the demo app, the library in a
 * minimal handler, or the hand-written handler on the eager data set (`kqp_bench_eager` on the server of
 * `BENCH_POSTGRES_URL` for postgres), on a free loopback port, prints
 * `{"port":…}` and runs until SIGTERM.
 */
const [kind, dialect] = process.argv.slice(2)
if ((kind !== 'demo' && kind !== 'library' && kind !== 'hand') || (dialect !== 'sqlite' && dialect !== 'postgres')) {
  throw new Error('usage: tsx bench/http-server.ts demo|library|hand sqlite|postgres')
}
const database = await ensureDataset(dialect, demoRecipe(EAGER_DATASET), benchServers(process.env), () => undefined)
const app =
  kind === 'demo'
    ? buildApp({ db: database.knex })
    : kind === 'library'
      ? buildLibraryMinimalServer(database.knex)
      : buildHandWrittenServer(database.knex, dialect)
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
process.stdout.write(
  `${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 })}\n`,
)
process.once('SIGTERM', () => {
  void app.close().then(async () => {
    await database.knex.destroy()
    process.exit(0)
  })
})
