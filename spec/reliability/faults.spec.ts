import { expect } from 'chai'
import { testDatabases } from '../support/databases.ts'
import { startFaultApp, type FaultApp } from './support/fault-app.ts'
import { TcpProxy } from './support/tcp-proxy.ts'
import { timedGet, type TimedResponse } from './support/timed-get.ts'

const database = testDatabases().find((candidate) => candidate.name === 'postgres')
const serverUrl = database?.engine === 'postgres-server' ? database.server?.url : undefined
const REAL = serverUrl !== undefined && serverUrl !== ''
const SKIPPED = REAL
  ? ''
  : ' [SKIPPED: needs TEST_POSTGRES_URL naming a real PostgreSQL server; PGlite has no server connections to kill]'
const PATH =
  '/posts?wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=%25a%25&with[0]=author&orders[0][column]=id'

/**
 * "Fast" for a failure: well under every wait the failure would otherwise cause (the 10 s slow request, the
 * {@link LONG_HOLD_SECONDS} hold, a connection timeout), with room for a loaded machine.
 */
const FAIL_FAST_MS = 6000
/** How long two statements hold every connection of the pool in the exhaustion test (cancelled once checked). */
const LONG_HOLD_SECONDS = 15
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A 503 as the demo must answer while the database is unreachable: fast, JSON, saying so. */
function expectUnavailable(response: TimedResponse, withinMs: number, what: string): void {
  expect(response.status, `${what}: ${response.text.slice(0, 300)}`).to.equal(503)
  expect(response.contentType, what).to.match(/json/)
  expect(response.body, what)
    .to.have.property('message')
    .that.is.a('string')
    .and.match(/database/i)
  expect(response.ms, `${what} took ${Math.round(response.ms)} ms`).to.be.lessThan(withinMs)
}

/** Polls `url` until it answers 200 with `reference`, within `ms`; returns how long that took. */
async function recovery(url: string, reference: string, ms: number): Promise<number> {
  const started = performance.now()
  let last = ''
  while (performance.now() - started < ms) {
    const response = await timedGet(url)
    if (response.status === 200 && response.text === reference) return performance.now() - started
    last = `${response.status} ${response.text.slice(0, 200)}`
    await sleep(100)
  }
  throw new Error(`no recovery within ${ms} ms; last answer: ${last}`)
}

describe(`faults: the demo server on a real PostgreSQL${SKIPPED}`, function () {
  this.timeout(30_000)
  let proxy: TcpProxy | undefined
  let app: FaultApp | undefined
  let throughProxy = ''

  beforeEach(async function () {
    if (!REAL || serverUrl === undefined) {
      this.skip()
      return
    }
    const target = new URL(serverUrl)
    proxy = new TcpProxy(target.hostname, Number(target.port === '' ? 5432 : target.port))
    const via = new URL(serverUrl)
    via.hostname = '127.0.0.1'
    via.port = String(await proxy.start())
    throughProxy = via.toString()
  })

  afterEach(async () => {
    await app?.close()
    await proxy?.stop()
    app = undefined
    proxy = undefined
  })

  it(`backends killed with pg_terminate_backend mid-run: in-flight requests fail fast with a 503 JSON body, the server recovers by itself${SKIPPED}`, async () => {
    app = await startFaultApp({ databaseUrl: throughProxy, poolMax: 4, acquireConnectionTimeout: 2000 })
    const { url, applicationName } = app
    const reference = (await timedGet(`${url}${PATH}`)).text
    const answers: TimedResponse[] = []
    let running = true
    const traffic = Promise.all(
      Array.from({ length: 6 }, async () => {
        while (running) answers.push(await timedGet(`${url}${PATH}`))
      }),
    )
    let count = 0
    let slowAnswer: TimedResponse
    let answeredAfterMs = 0
    try {
      const slow = timedGet(`${url}/slow?seconds=10`)
      await sleep(400)
      const killedAt = performance.now()
      const killed = await database?.knex.raw(
        'select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = ?',
        [applicationName],
      )
      count = (killed as { rows: unknown[] }).rows.length
      slowAnswer = await slow
      answeredAfterMs = performance.now() - killedAt
      await sleep(1000)
    } finally {
      running = false
      await traffic
    }
    expect(count, 'backends killed').to.be.greaterThan(0)
    expectUnavailable(slowAnswer, 12_000, 'the request whose query was killed')
    expect(answeredAfterMs, 'the killed request answered long after the kill').to.be.lessThan(FAIL_FAST_MS)
    const statuses = new Set(answers.map((answer) => answer.status))
    expect(
      [...statuses].every((status) => status === 200 || status === 503),
      `statuses ${[...statuses].join(', ')}`,
    ).to.equal(true)
    for (const answer of answers) {
      if (answer.status === 200) expect(answer.text).to.equal(reference)
      else expectUnavailable(answer, FAIL_FAST_MS, 'a request during the kill')
    }
    const took = await recovery(`${url}${PATH}`, reference, 5000)
    console.log(
      `      killed ${count} backends; ${answers.length} requests meanwhile (${answers.filter((answer) => answer.status === 503).length} × 503); killed request answered in ${Math.round(slowAnswer.ms)} ms; recovered in ${Math.round(took)} ms`,
    )
  })

  it(`the server goes away (connections dropped, new ones refused) and comes back: 503 fast meanwhile, then recovery without a restart${SKIPPED}`, async () => {
    app = await startFaultApp({ databaseUrl: throughProxy, poolMax: 4, acquireConnectionTimeout: 2000 })
    const { url } = app
    const reference = (await timedGet(`${url}${PATH}`)).text
    await proxy?.stop()
    const during: TimedResponse[] = []
    for (let i = 0; i < 5; i++) during.push(await timedGet(`${url}${PATH}`))
    for (const answer of during) expectUnavailable(answer, FAIL_FAST_MS, 'a request while the server is down')
    await proxy?.start()
    const took = await recovery(`${url}${PATH}`, reference, 5000)
    for (let i = 0; i < 10; i++) expect((await timedGet(`${url}${PATH}`)).text).to.equal(reference)
    console.log(
      `      down: 503 in ${during.map((answer) => Math.round(answer.ms)).join(', ')} ms; back: recovered in ${Math.round(took)} ms`,
    )
  })

  it(`pool exhaustion queues requests, and answers 503 after acquireConnectionTimeout rather than hanging${SKIPPED}`, async () => {
    app = await startFaultApp({ databaseUrl: throughProxy, poolMax: 2, acquireConnectionTimeout: 1000 })
    const { url, knex } = app
    const reference = (await timedGet(`${url}${PATH}`)).text
    const shortHold = Promise.all([knex.raw('select pg_sleep(0.5)'), knex.raw('select pg_sleep(0.5)')])
    await sleep(100)
    const queued = await timedGet(`${url}${PATH}`)
    expect(queued.status, 'a request queued behind a short hold is served').to.equal(200)
    expect(queued.text).to.equal(reference)
    expect(queued.ms, 'it waited for a connection').to.be.greaterThan(300)
    await shortHold
    const longHold = Promise.allSettled([
      knex.raw(`select pg_sleep(${LONG_HOLD_SECONDS})`),
      knex.raw(`select pg_sleep(${LONG_HOLD_SECONDS})`),
    ])
    await sleep(100)
    const exhausted = await timedGet(`${url}${PATH}`)
    expectUnavailable(exhausted, FAIL_FAST_MS, 'a request while every connection is held')
    expect(exhausted.ms, 'it waited for acquireConnectionTimeout first').to.be.greaterThan(900)
    await database?.knex.raw(
      "select pg_cancel_backend(pid) from pg_stat_activity where application_name = ? and query like 'select pg_sleep%'",
      [app.applicationName],
    )
    await longHold
    expect((await timedGet(`${url}${PATH}`)).text).to.equal(reference)
    console.log(
      `      queued request served in ${Math.round(queued.ms)} ms; exhausted pool answered 503 in ${Math.round(exhausted.ms)} ms`,
    )
  })
})
