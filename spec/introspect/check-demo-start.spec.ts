import { expect } from 'chai'
import knex from 'knex'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkDemoMap } from '../../demo/check-demo-map.ts'
import { MapMismatchError } from '../../demo/map-mismatch-error.ts'
import { demoRelationMap } from '../../demo/relation-map.ts'
import { migrate } from '../../fixtures/migrate.ts'
import { seed } from '../../fixtures/seed.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { testDatabases } from '../support/databases.ts'
import { runScript } from '../safety/support/run-script.ts'

const demoMap: RelationMap = demoRelationMap
const withPostColumns = (columns: NonNullable<RelationMap['posts']>['columns']): RelationMap => {
  const posts = demoMap.posts
  if (posts === undefined) throw new Error('no posts')
  return { ...demoMap, posts: { ...posts, columns: { ...posts.columns, ...columns } } }
}

for (const database of testDatabases()) {
  describe(`the demo's map check at start (${database.label})`, () => {
    it('passes the demo map; returns warnings for the log; throws a MapMismatchError listing every problem on an error', async () => {
      expect(await checkDemoMap(database.knex, demoMap)).to.deep.equal([])
      const warnings = await checkDemoMap(database.knex, withPostColumns({ title: 'string' }))
      expect(warnings.map((problem) => problem.kind)).to.deep.equal(['not_null_undeclared'])
      const caught = await checkDemoMap(database.knex, withPostColumns({ title: 'string', subtitle: 'string' })).catch(
        (thrown: unknown) => thrown,
      )
      expect(caught).to.be.instanceOf(MapMismatchError)
      expect((caught as MapMismatchError).message).to.equal(
        'Refusing to serve: the relation map does not fit this database (1 error, 1 warning). Fix the map (demo/relation-map.ts, fixtures/relation-map.ts) or the schema (migrations/):\n' +
          '  warning posts.columns.title (not_null_undeclared): posts.title is NOT NULL; declare nullable: false so its orders need no NULL-ordering clause\n' +
          "  error   posts.columns.subtitle (missing_column): posts has no column 'subtitle'",
      )
    })
  })
}

describe('the demo refuses to serve a database its map does not fit', function () {
  this.timeout(90_000)
  let directory: string

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'kqp-demo-map-'))
  })

  after(async () => {
    await rm(directory, { recursive: true, force: true })
  })

  it('a renamed column: exit 1, every problem listed, no stack, nothing served', async () => {
    const file = join(directory, 'renamed.sqlite')
    const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
    try {
      await migrate(db)
      await seed(db)
      await db.raw('alter table posts rename column title to headline')
    } finally {
      await db.destroy()
    }
    const { code, output } = await runScript(
      'demo/server.ts',
      { DATABASE_URL: `sqlite:${file}`, PORT: '0', HOST: '127.0.0.1' },
      60_000,
    )
    expect(code, output).to.equal(1)
    expect(output.trim()).to.equal(
      'Refusing to serve: the relation map does not fit this database (1 error, 0 warnings). Fix the map (demo/relation-map.ts, fixtures/relation-map.ts) or the schema (migrations/):\n' +
        "  error   posts.columns.title (missing_column): posts has no column 'title'",
    )
  })
})
