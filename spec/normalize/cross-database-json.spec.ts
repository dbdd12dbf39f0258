import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { testDatabases } from '../support/databases.ts'

const run = promisify(execFile)
const script = fileURLToPath(new URL('./support/json-entry-points.ts', import.meta.url))

/** Time zones east and west of UTC (Berlin is the issue's), with a DST change near the rows' dates. */
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata']

const ORDER_1 = {
  id: 1,
  label: 'first',
  paid: true,
  day: '2024-03-01',
  at: '2024-03-01T12:00:00.000Z',
  noted: '2024-03-01T23:30:00.000Z',
  price: '4.99',
  weight: 1.5,
  big: '9007199254740993',
}
const ORDER_2 = {
  id: 2,
  label: 'second',
  paid: false,
  day: '2024-02-29',
  at: '2024-02-29T23:59:59.123Z',
  noted: '2024-01-01T00:00:00.000Z',
  price: '69.4',
  weight: 0,
  big: '-42',
}
const ORDER_3 = {
  id: 3,
  label: null,
  paid: false,
  day: null,
  at: null,
  noted: null,
  price: null,
  weight: null,
  big: null,
}
const LINES_1 = [
  { id: 10, shipped: true, ship_day: '2024-03-02', amount: 2.25, total: '10.1' },
  { id: 11, shipped: false, ship_day: '2023-12-31', amount: 3, total: '0' },
]
const LINES_2 = [{ id: 12, shipped: null, ship_day: null, amount: null, total: null }]
const WITH_LINES = [
  { ...ORDER_1, lines: LINES_1 },
  { ...ORDER_2, lines: LINES_2 },
  { ...ORDER_3, lines: [] },
]
const LINES_WITH_ORDER = [
  { ...LINES_1[0], order: ORDER_1 },
  { ...LINES_1[1], order: ORDER_1 },
  { ...LINES_2[0], order: ORDER_2 },
]

/** What every entry point gives, on every database, in every time zone. */
const EXPECTED: Record<string, unknown> = {
  await: WITH_LINES,
  then: WITH_LINES,
  clone: WITH_LINES,
  first: WITH_LINES[0],
  paginate: {
    data: WITH_LINES.slice(0, 2),
    meta: { current_page: 1, per_page: 2, from: 1, to: 2, total: 3, last_page: 2 },
  },
  paginateUnlimited: WITH_LINES.slice(2),
  loadRelations: WITH_LINES.map(({ id, paid, day, at, noted, price, weight, big, label, lines }) => ({
    id,
    paid,
    day,
    at,
    noted,
    price,
    weight,
    big,
    label,
    lines,
  })),
  lineWithOrder: LINES_WITH_ORDER,
  lineWithOrderClone: LINES_WITH_ORDER,
  filteredAt: [{ id: 1 }],
  filteredNoted: [{ id: 2 }],
  orderedAt: [
    { id: 1, at: ORDER_1.at },
    { id: 2, at: ORDER_2.at },
    { id: 3, at: null },
  ],
  filteredBig: [{ id: 1 }],
  filteredPrice: [{ id: 1 }, { id: 2 }],
  filteredDay: [{ id: 1 }],
  stream: WITH_LINES,
  streamClone: WITH_LINES,
  lineWithOrderStream: LINES_WITH_ORDER,
}

describe('the same JSON on every database, in every time zone', () => {
  const databases = testDatabases()
  const targets = {
    postgres: databases.find((db) => db.engine === 'postgres-server')?.server?.url,
    mysql: databases.find((db) => db.engine === 'mysql')?.server?.url,
  }
  const outputs = new Map<string, string>()

  for (const zone of ZONES) {
    it(`TZ=${zone}: rows written the usual way on each database come back as the same JSON from every entry point`, async function () {
      this.timeout(120_000)
      const { stdout } = await run(process.execPath, ['--import', 'tsx', script, JSON.stringify(targets)], {
        env: { ...process.env, TZ: zone },
        maxBuffer: 16 * 1024 * 1024,
      })
      outputs.set(zone, stdout)
      const results = JSON.parse(stdout) as Record<string, Record<string, unknown>>
      const expectedDatabases = [
        'sqlite',
        ...(targets.postgres === undefined ? [] : ['postgres', 'postgres#1']),
        ...(targets.mysql === undefined ? [] : ['mysql', 'mysql#1']),
      ]
      expect(Object.keys(results)).to.deep.equal(expectedDatabases)
      for (const [database, entryPoints] of Object.entries(results)) {
        // knex streams through pg only with pg-query-stream, which the suite does not install.
        const expected = database.startsWith('postgres')
          ? Object.fromEntries(
              Object.entries(EXPECTED).filter(([name]) => !name.startsWith('stream') && name !== 'lineWithOrderStream'),
            )
          : EXPECTED
        expect(Object.keys(entryPoints), database).to.deep.equal(Object.keys(expected))
        for (const [entryPoint, value] of Object.entries(entryPoints)) {
          expect(JSON.stringify(value), `${database} ${entryPoint}`).to.equal(JSON.stringify(expected[entryPoint]))
        }
      }
    })
  }

  it('prints byte-identical JSON in every time zone', function () {
    if (outputs.size !== ZONES.length) this.skip()
    expect(new Set(outputs.values()).size).to.equal(1)
  })
})
