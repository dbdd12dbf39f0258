import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { idsOf, rowsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'

/**
 * The fixture map with per-column capabilities: `users.score` and `teams.name` cannot be ordered by,
 * `users.birthday` and `posts.updated_at` cannot be filtered on, `users.email` takes only `=` and `in`,
 * `posts.body` only `like` and `=`.
 */
const capped = defineRelationMap({
  ...relationMap,
  users: {
    ...relationMap.users,
    columns: {
      ...relationMap.users.columns,
      score: { type: 'number', sortable: false },
      birthday: { type: 'date', filterable: false },
      email: { type: 'string', nullable: false, unique: true, operators: ['=', 'in'] },
    },
  },
  teams: {
    ...relationMap.teams,
    columns: { ...relationMap.teams.columns, name: { type: 'string', nullable: false, sortable: false } },
  },
  posts: {
    ...relationMap.posts,
    columns: {
      ...relationMap.posts.columns,
      body: { type: 'string', operators: ['like', '='] },
      updated_at: { type: 'datetime', nullable: false, filterable: false },
    },
  },
})

const USERS = Object.keys(relationMap.users.columns)
const TEAMS = Object.keys(relationMap.teams.columns)
const without = (columns: readonly string[], ...left: string[]): string[] =>
  columns.filter((column) => !left.includes(column))

function run(
  db: TestDatabase,
  table: string,
  query: string,
  map: RelationMap = capped,
): ReturnType<typeof applyQueryParams> {
  return applyQueryParams(db.knex(table), parseQueryParams(query), map)
}

/** The request gives the same rows under the capped map as under the fixture map: a capability only refuses. */
async function sameRows(db: TestDatabase, table: string, query: string): Promise<number[]> {
  const ids = idsOf(await run(db, table, query))
  expect(ids, query).to.deep.equal(idsOf(await run(db, table, query, relationMap)))
  return ids
}

for (const db of testDatabases()) {
  describe(`per-column capabilities (${db.name})`, () => {
    describe('sortable: false → not_sortable, allowed listing the sortable columns', () => {
      it('on the own table; the other columns still order as before', async () => {
        expectQueryParamsError(() => run(db, 'users', 'orders[0][column]=name&orders[1][column]=score'), {
          code: 'not_sortable',
          param: 'orders[1][column]',
          allowed: without(USERS, 'score'),
        })
        expect(await sameRows(db, 'users', 'orders[0][column]=name&orders[1][column]=email&limit=5')).to.have.length(5)
      })
      it('through a belongsTo, a hasOne and two hops', async () => {
        const notSortable = {
          code: 'not_sortable',
          param: 'orders[0][column]',
          allowed: without(TEAMS, 'name'),
        } as const
        expectQueryParamsError(() => run(db, 'users', 'orders[0][column]=team.name'), notSortable)
        expectQueryParamsError(() => run(db, 'users', 'orders[0][column]=ownedTeam.name'), notSortable)
        expectQueryParamsError(() => run(db, 'posts', 'orders[0][column]=author.team.name'), notSortable)
        expectQueryParamsError(() => run(db, 'posts', 'orders[0][column]=author.score'), {
          code: 'not_sortable',
          param: 'orders[0][column]',
          allowed: without(USERS, 'score'),
        })
        expect(
          await sameRows(
            db,
            'posts',
            'orders[0][column]=author.team.created_at&orders[1][column]=author.email&limit=6',
          ),
        ).to.have.length(6)
      })
      it('in distinct, and in columns selected with distinct (SELECT DISTINCT compares them all)', async () => {
        expectQueryParamsError(() => run(db, 'users', 'distinct[0]=team_id&distinct[1]=score'), {
          code: 'not_sortable',
          param: 'distinct[1]',
          allowed: without(USERS, 'score'),
        })
        expectQueryParamsError(() => run(db, 'users', 'distinct[0]=team_id&columns[0]=score'), {
          code: 'not_sortable',
          param: 'columns[0]',
        })
        const rows = rowsOf(
          await run(
            db,
            'users',
            'distinct[0]=team_id&columns[0]=is_admin&orders[0][column]=team_id&orders[1][column]=is_admin',
          ),
        )
        expect(rows.length).to.be.above(1)
      })
      it('a column that cannot be ordered by can still be selected, filtered on, and returned', async () => {
        const rows = rowsOf(
          await run(
            db,
            'users',
            'columns[0]=id&columns[1]=score&wheres[0][column]=score&wheres[0][operator]=%3E&wheres[0][value]=0&orders[0][column]=id',
          ),
        )
        expect(rows.length).to.be.above(0)
        expect(Object.keys(rows[0] ?? {})).to.have.members(['id', 'score'])
      })
    })

    describe('filterable: false → not_filterable, allowed listing the filterable columns', () => {
      it('on the own table', async () => {
        expectQueryParamsError(
          () =>
            run(
              db,
              'users',
              'wheres[0][column]=id&wheres[0][value]=1&wheres[1][column]=birthday&wheres[1][operator]=%3E&wheres[1][value]=2000-01-01',
            ),
          {
            code: 'not_filterable',
            param: 'wheres[1][column]',
            allowed: without(USERS, 'birthday'),
          },
        )
        expectQueryParamsError(() => run(db, 'users', 'wheres[0][column]=birthday&wheres[0][value]'), {
          code: 'not_filterable',
          param: 'wheres[0][column]',
        })
      })
      it('as relation.column, at any depth, and on every morphTo target (never dropped to the targets that allow it)', async () => {
        expectQueryParamsError(
          () => run(db, 'posts', 'wheres[0][column]=author.birthday&wheres[0][value]=2000-01-01'),
          { code: 'not_filterable', param: 'wheres[0][column]' },
        )
        expectQueryParamsError(
          () =>
            run(
              db,
              'teams',
              'wheres[0][column]=members.posts.updated_at&wheres[0][operator]=%3E&wheres[0][value]=2000-01-01',
            ),
          { code: 'not_filterable', param: 'wheres[0][column]' },
        )
        expectQueryParamsError(
          () =>
            run(
              db,
              'images',
              'wheres[0][column]=imageable.updated_at&wheres[0][operator]=%3E&wheres[0][value]=2000-01-01',
            ),
          { code: 'not_filterable', param: 'wheres[0][column]' },
        )
        expect(
          await sameRows(
            db,
            'images',
            'wheres[0][column]=imageable.created_at&wheres[0][operator]=%3E&wheres[0][value]=2000-01-01&orders[0][column]=id',
          ),
        ).to.not.be.empty
      })
      it('it can still be ordered by', async () => {
        expect(
          await sameRows(db, 'users', 'orders[0][column]=birthday&orders[0][direction]=desc&limit=4'),
        ).to.have.length(4)
      })
    })

    describe('operators → operator_not_allowed, allowed listing them', () => {
      it('on the own table: = and in run, like and != are refused; = null is the = operator', async () => {
        expectQueryParamsError(
          () => run(db, 'users', 'wheres[0][column]=email&wheres[0][operator]=like&wheres[0][value]=%25example%25'),
          {
            code: 'operator_not_allowed',
            param: 'wheres[0][operator]',
            allowed: ['=', 'in'],
          },
        )
        expectQueryParamsError(
          () => run(db, 'users', 'wheres[0][column]=email&wheres[0][operator]=!%3D&wheres[0][value]=x'),
          { code: 'operator_not_allowed', param: 'wheres[0][operator]' },
        )
        const first = rowsOf(await run(db, 'users', 'orders[0][column]=id&limit=2'))
        const emails = first.map((row) => String(row.email))
        expect(
          await sameRows(
            db,
            'users',
            `wheres[0][column]=email&wheres[0][value]=${encodeURIComponent(emails[0] ?? '')}`,
          ),
        ).to.deep.equal([Number(first[0]?.id)])
        expect(
          await sameRows(
            db,
            'users',
            `wheres[0][column]=email&wheres[0][operator]=in&${emails.map((email, i) => `wheres[0][value][${i}]=${encodeURIComponent(email)}`).join('&')}&orders[0][column]=id`,
          ),
        ).to.have.length(2)
        expect(await sameRows(db, 'users', 'wheres[0][column]=email&wheres[0][value]')).to.deep.equal([])
      })
      it('as relation.column', async () => {
        expectQueryParamsError(
          () => run(db, 'posts', 'wheres[0][column]=author.email&wheres[0][operator]=like&wheres[0][value]=a%25'),
          { code: 'operator_not_allowed', param: 'wheres[0][operator]', allowed: ['=', 'in'] },
        )
        expectQueryParamsError(
          () => run(db, 'users', 'wheres[0][column]=posts.body&wheres[0][operator]=in&wheres[0][value][0]=x'),
          { code: 'operator_not_allowed', param: 'wheres[0][operator]', allowed: ['like', '='] },
        )
        expect(
          await sameRows(
            db,
            'users',
            'wheres[0][column]=posts.body&wheres[0][operator]=like&wheres[0][value]=%25e%25&orders[0][column]=id',
          ),
        ).to.not.be.empty
      })
    })

    it('the default map keeps every capability: no refusal for any of these requests, and their rows', async () => {
      const users = await db.knex('users').select('id', 'birthday', 'email', 'score')
      const ids = (rows: ReadonlyArray<Record<string, unknown>>): number[] =>
        rows.map((row) => Number(row.id)).sort((a, b) => a - b)
      const every = ids(users)
      const byQuery: ReadonlyArray<[query: string, expected: number[]]> = [
        ['orders[0][column]=score', every],
        ['orders[0][column]=team.name', every],
        ['wheres[0][column]=birthday&wheres[0][value]', ids(users.filter((user) => user.birthday === null))],
        [
          'wheres[0][column]=email&wheres[0][operator]=like&wheres[0][value]=%25a%25',
          ids(users.filter((user) => /a/i.test(String(user.email)))),
        ],
      ]
      for (const [query, expected] of byQuery) {
        expect(expected, query).to.not.be.empty
        expect(ids(rowsOf(await run(db, 'users', query, relationMap))), query).to.deep.equal(expected)
      }
      const scores = rowsOf(await run(db, 'users', 'distinct[0]=score', relationMap)).map((row) => row.score)
      expect(scores.map((score) => (score === null ? null : Number(score))).sort(), 'distinct[0]=score').to.deep.equal(
        [...new Set(users.map((user) => (user.score === null ? null : Number(user.score))))].sort(),
      )
    })
  })
}
