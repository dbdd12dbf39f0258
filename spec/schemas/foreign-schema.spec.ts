import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createRentals, RENTALS_RATINGS } from '../../fixtures/rentals/create-rentals.ts'
import { seedRentals } from '../../fixtures/rentals/seed-rentals.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

const run = promisify(execFile)
const script = fileURLToPath(new URL('./support/rentals-run.ts', import.meta.url))

/** Random requests per run, on top of the hand-picked ones (`FUZZ_RUNS` raises it). */
const RANDOM = Number(process.env.FUZZ_RUNS ?? '120')
const ZONES = ['UTC', 'America/New_York']

interface Output {
  requests: Array<{ table: string; query: string }>
  maps: Record<string, unknown>
  notices: Record<string, string[]>
  problems: Record<string, unknown[]>
  answers: Record<
    string,
    Array<{ rows?: unknown[]; status?: number; code?: string; allowed?: string[]; message?: string }>
  >
}

/** A map as JSON without SQLite's `storage` declarations (a definition left with its type alone written as the type). */
const withoutStorage = (map: unknown): string =>
  JSON.stringify(map, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || !('storage' in value)) return value
    const { storage: _storage, ...rest } = value as Record<string, unknown>
    return Object.keys(rest).length === 1 ? rest['type'] : rest
  })

describe('a schema written by others (rentals, shaped like Pagila/Sakila) on every database, in UTC and in New York', function () {
  this.timeout(300_000)
  const fresh: TestDatabase[] = []
  const targets: { postgres?: string; mysql?: string } = {}
  const outputs = new Map<string, string>()

  before(async () => {
    for (const database of testDatabases().filter((each) => each.server !== undefined)) {
      const own = await freshDatabase(database, 'rentals')
      fresh.push(own)
      await createRentals(own.knex)
      await seedRentals(own.knex)
      targets[database.name === 'mysql' ? 'mysql' : 'postgres'] = own.server?.url ?? ''
    }
  })

  after(async () => {
    for (const own of fresh) await dropFreshDatabase(own)
  })

  for (const zone of ZONES) {
    it(`TZ=${zone}: each database's generated map is clean, and every request gets the same JSON on every database, never a 500`, async () => {
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', script, JSON.stringify(targets), String(RANDOM), '30'],
        {
          env: { ...process.env, TZ: zone },
          maxBuffer: 64 * 1024 * 1024,
        },
      )
      outputs.set(zone, stdout)
      const output = JSON.parse(stdout) as Output
      const names = ['sqlite', 'postgres', ...(targets.mysql === undefined ? [] : ['mysql'])]
      expect(Object.keys(output.answers)).to.deep.equal(names)
      for (const name of names) {
        expect(output.problems[name], `${name}: checkRelationMap on the map just generated`).to.deep.equal([])
        expect(withoutStorage(output.maps[name]), `${name}: the map`).to.equal(withoutStorage(output.maps['sqlite']))
      }
      expect(output.notices['postgres']).to.include.members([
        'payment: its partitions or INHERITS children (payment_p2024_01, payment_p2024_02) are folded into it, not resources of their own',
        'rental: its partitions or INHERITS children (rental_2024_h1, rental_2024_h2) are folded into it, not resources of their own',
      ])
      expect(output.notices['sqlite']).to.include.members([
        "rental.rental_date: declared storage 'epoch_ms', the form of its 120 sampled values",
      ])
      const failures: string[] = []
      const differences: string[] = []
      output.requests.forEach((request, index) => {
        const answers = names.map((name) => JSON.stringify(output.answers[name]?.[index]))
        names.forEach((name, at) => {
          if (output.answers[name]?.[index]?.status === 500)
            failures.push(`${name} /${request.table}?${request.query}: ${answers[at] ?? ''}`)
        })
        if (answers.some((answer) => answer !== answers[0]))
          differences.push(`/${request.table}?${request.query}:\n  ${answers.join('\n  ')}`)
      })
      expect(failures, 'answered with a 500').to.deep.equal([])
      expect(differences, 'different JSON on different databases').to.deep.equal([])
      const answer = (index: number): unknown => output.answers['sqlite']?.[index]
      expect(answer(1)).to.deep.equal({
        rows: [{ language_id: 4, name: 'Mandarin', last_update: '2024-08-29T16:35:08.000Z' }],
      })
      expect(answer(3)).to.deep.equal(answer(1))
      expect(answer(7)).to.deep.equal({
        status: 400,
        code: 'invalid_value',
        param: 'wheres[0][value]',
        allowed: RENTALS_RATINGS,
      })
      const rated = (answer(4) as { rows: Array<{ rating: string }> }).rows.map((row) => row.rating)
      expect(rated).to.have.length.above(0)
      expect(new Set(rated)).to.deep.equal(new Set(['PG', 'PG-13']))
      const later = (answer(5) as { rows: Array<{ rating: string }> }).rows.map((row) => row.rating)
      expect(new Set(later)).to.deep.equal(new Set(['PG', 'PG-13', 'R']))
    })
  }

  it('prints byte-identical JSON in both time zones', function () {
    if (outputs.size !== ZONES.length) this.skip()
    expect(outputs.get('America/New_York')).to.equal(outputs.get('UTC'))
  })
})
