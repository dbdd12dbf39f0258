// Run as a child process (`TZ` set by the parent): on each database named in argv[2] (JSON: `{ postgres?, mysql? }`
// server URLs of databases holding the rentals schema; SQLite, and PGlite without a PostgreSQL URL, are made here),
// generates the map with `introspectRelationMapWithNotices`, checks it with `checkRelationMap`, and answers the
// hand-picked requests and argv[3] random ones (seed argv[4]) with the connection a new user would open. Prints one
// JSON object: { maps, notices, problems, answers: database → [{ rows } | { status: 400, code } | { status: 500, message }] }.
import { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import knex, { type Knex } from 'knex'
import ClientPgLite from 'knex-pglite'
import { applyQueryParams, parseQueryParams, QueryParamsError, type RelationMap } from '../../../lib/index.ts'
import { checkRelationMap, introspectRelationMapWithNotices } from '../../../lib/introspect.ts'
import { createRentals } from '../../../fixtures/rentals/create-rentals.ts'
import { seedRentals } from '../../../fixtures/rentals/seed-rentals.ts'
import { randomRentalRequest, RENTAL_REQUESTS, type RentalRequest } from './rental-requests.ts'

interface Targets {
  postgres?: string
  mysql?: string
}

const targets = JSON.parse(process.argv[2] ?? '{}') as Targets
const count = Number(process.argv[3] ?? '0')
const seed = Number(process.argv[4] ?? '30')

async function answer(db: Knex, map: RelationMap, request: RentalRequest): Promise<unknown> {
  try {
    return { rows: await applyQueryParams(db(request.table), parseQueryParams(request.query), map) }
  } catch (error) {
    if (error instanceof QueryParamsError)
      return {
        status: 400,
        code: error.code,
        param: error.param,
        ...(error.allowed === undefined ? {} : { allowed: error.allowed }),
      }
    return { status: 500, message: error instanceof Error ? error.message : String(error) }
  }
}

const databases: Array<[string, () => Promise<Knex>]> = [
  [
    'sqlite',
    async () => {
      const db = knex({
        client: 'better-sqlite3',
        connection: { filename: ':memory:' },
        useNullAsDefault: true,
        pool: { min: 1, max: 1 },
      })
      await createRentals(db)
      await seedRentals(db)
      return db
    },
  ],
  [
    'postgres',
    async () => {
      const url = targets.postgres
      if (url !== undefined) return knex({ client: 'pg', connection: url, pool: { min: 0, max: 2 } })
      const pglite = new PGlite()
      const db = knex({
        client: ClientPgLite,
        connection: (() => ({ pglite })) as unknown as Knex.ConnectionConfigProvider,
      })
      await createRentals(db)
      await seedRentals(db)
      return db
    },
  ],
  ...(targets.mysql === undefined
    ? []
    : [
        [
          'mysql',
          async () => knex({ client: 'mysql2', connection: targets.mysql ?? '', pool: { min: 0, max: 2 } }),
        ] as [string, () => Promise<Knex>],
      ]),
]

const output = {
  maps: {} as Record<string, unknown>,
  notices: {} as Record<string, unknown>,
  problems: {} as Record<string, unknown>,
  answers: {} as Record<string, unknown[]>,
}
let requests: RentalRequest[] | undefined
for (const [name, open] of databases) {
  const db = await open()
  try {
    const { map, notices } = await introspectRelationMapWithNotices(db)
    output.maps[name] = map
    output.notices[name] = notices.map((notice) => notice.message)
    output.problems[name] = await checkRelationMap(db, map)
    requests ??= [...RENTAL_REQUESTS, ...fc.sample(randomRentalRequest(map), { seed, numRuns: count })]
    const answers: unknown[] = []
    for (const request of requests) answers.push(await answer(db, map, request))
    output.answers[name] = answers
  } finally {
    await db.destroy()
  }
}
process.stdout.write(JSON.stringify({ requests, ...output }))
