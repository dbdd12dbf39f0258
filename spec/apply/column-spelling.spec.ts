import { expect } from 'chai'
import { relationMap as snakeMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { columnSpellings } from '../../lib/map/columns.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { ColumnSpec, RelationMap } from '../../lib/relation-map.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())

/**
 * The fixture map as `introspect --naming camel` writes one: every column under its camelCase name with
 * `column: '<snake_case>'`; keys, relations and guards name the database columns as before.
 */
function camelCaseMap(map: RelationMap): RelationMap {
  return defineRelationMap(
    Object.fromEntries(
      Object.entries(map).map(([table, definition]) => [
        table,
        {
          ...definition,
          columns: Object.fromEntries(
            Object.entries(definition.columns).map(([name, spec]): [string, ColumnSpec] => {
              const declared = typeof spec === 'string' ? { type: spec } : spec
              return camel(name) === name ? [name, spec] : [camel(name), { ...declared, column: name }]
            }),
          ),
        },
      ]),
    ),
  )
}

const MAPS = { 'a snake_case map': snakeMap as RelationMap, 'a camelCase map': camelCaseMap(snakeMap) }

// The exact query strings @upfrontjs/framework 0.19 sends (qs.stringify with encodeValuesOnly; see FORMAT.md).
const LATEST = 'orders[0][column]=created_at&orders[0][direction]=desc&limit=3'
const OLDEST = 'orders[0][column]=created_at&orders[0][direction]=asc&limit=3'
const WHERE_KEY = 'wheres[0][column]=id&wheres[0][operator]=%3D&wheres[0][value]=2&wheres[0][boolean]=and'
const WHERE_KEYS =
  'wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=3&wheres[0][boolean]=and'
const HAS_MANY = 'wheres[0][column]=userId&wheres[0][operator]=%3D&wheres[0][value]=2&wheres[0][boolean]=and'

describe('columnSpellings', () => {
  it('gives the snake_case and camelCase spellings of a name', () => {
    expect(['createdAt', 'created_at', 'CreatedAt'].map(columnSpellings)).to.deep.equal(
      Array(3).fill(['created_at', 'createdAt']),
    )
    expect(['userID', 'ArtistId', 'HTMLTitle', 'line2_total', 'id'].map(columnSpellings)).to.deep.equal([
      ['user_id', 'userId'],
      ['artist_id', 'artistId'],
      ['html_title', 'htmlTitle'],
      ['line2_total', 'line2Total'],
      ['id', 'id'],
    ])
  })
})

describe('defineRelationMap: two columns of one spelling', () => {
  it('is a map error naming the path', () => {
    expect(() =>
      defineRelationMap({
        users: {
          columns: { id: 'integer', created_at: 'datetime', createdAt: { type: 'datetime', column: 'created' } },
        },
      }),
    ).to.throw(
      "knex-query-params: users.columns.createdAt: 'createdAt' and 'created_at' are one name to a client, which may send either spelling (snake_case or camelCase); declare one of them, or give one another client name with { column: 'createdAt' }",
    )
  })
})

for (const db of testDatabases()) {
  for (const [label, map] of Object.entries(MAPS)) {
    const build = (table: string, query: string) => applyQueryParams(db.knex(table), parseQueryParams(query), map)
    const run = async (table: string, query: string): Promise<Array<Record<string, unknown>>> =>
      rowsOf(await build(table, query))
    const createdAt = label === 'a camelCase map' ? 'createdAt' : 'created_at'
    const userId = label === 'a camelCase map' ? 'userId' : 'user_id'

    describe(`client column spellings against ${label} (${db.name})`, () => {
      it('latest() and oldest(): orders[0][column]=created_at', async () => {
        expect((await run('users', LATEST)).map((row) => row['id'])).to.deep.equal([12, 11, 10])
        expect((await run('users', OLDEST)).map((row) => row['id'])).to.deep.equal([3, 1, 2])
      })

      it('whereKey(2) and whereKey([1, 3])', async () => {
        expect((await run('users', WHERE_KEY)).map((row) => row['id'])).to.deep.equal([2])
        expect((await run('users', `${WHERE_KEYS}&orders[0][column]=id`)).map((row) => row['id'])).to.deep.equal([1, 3])
      })

      it("a hasMany's guessed foreign key: wheres[0][column]=userId", async () => {
        const rows = await run('posts', `${HAS_MANY}&orders[0][column]=id`)
        expect(rows.map((row) => [row['id'], row[userId]])).to.deep.equal([
          [6, 2],
          [7, 2],
          [8, 2],
        ])
      })

      it("select(): columns in either spelling, answered under the map's names", async () => {
        for (const columns of ['columns[0]=id&columns[1]=created_at', 'columns[0]=id&columns[1]=createdAt']) {
          const rows = await run('users', `${columns}&${WHERE_KEY}`)
          expect(rows).to.have.length(1)
          expect(Object.keys(rows[0] ?? {})).to.deep.equal(['id', createdAt])
        }
      })

      it('distinct, a relation path and a relation order in either spelling', async () => {
        for (const spelling of ['user_id', 'userId']) {
          const distinct = await run('posts', `distinct[0]=${spelling}&orders[0][column]=${spelling}`)
          expect(distinct.map((row) => row[userId])).to.deep.equal([1, 2, 3, 4, 5, 7, 9, 10, 11, 12])
        }
        for (const spelling of ['is_admin', 'isAdmin']) {
          const rows = await run(
            'posts',
            `wheres[0][column]=author.${spelling}&wheres[0][value]=false&columns[0]=id&orders[0][column]=author.${spelling === 'is_admin' ? 'created_at' : 'createdAt'}&orders[1][column]=id&limit=2`,
          )
          expect(rows.map((row) => row['id'])).to.deep.equal([6, 7])
        }
      })

      it('any other name is still unknown_column', () => {
        expectQueryParamsError(() => build('users', 'columns[0]=createdat'), {
          code: 'unknown_column',
          param: 'columns[0]',
        })
        expectQueryParamsError(() => build('users', 'columns[0]=CREATED_AT'), {
          code: 'unknown_column',
          param: 'columns[0]',
        })
        expectQueryParamsError(() => build('users', 'wheres[0][column]=password&wheres[0][value]=x'), {
          code: 'unknown_column',
          param: 'wheres[0][column]',
        })
      })
    })
  }
}
