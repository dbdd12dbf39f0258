import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, paginate, parseQueryParams } from '../../lib/index.ts'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { findSecrets, PASSWORD_HASHES } from './support/find-secrets.ts'
import { statementsOf } from './support/statements-of.ts'

/** Spellings of the hidden column a client might try: case, qualification, padding, look-alikes, SQL. */
const SPELLINGS = [
  'password',
  'Password',
  'PASSWORD',
  'passWord',
  'users.password',
  'Users.password',
  ' password ',
  'password\u0000',
  'pass%77ord',
  '"password"',
  '`password`',
  'users."password"',
  'password as name',
  'name, password',
  'paſsword',
  'pаssword',
  'password\u200B',
  'users.*',
  '*',
  'users.password.password',
]

/** Relation paths from each table to `users`, ending in the hidden column. */
const RELATION_PATHS: ReadonlyArray<[table: string, column: string]> = [
  ['users', 'team.owner.password'],
  ['users', 'team.members.password'],
  ['users', 'posts.author.password'],
  ['users', 'comments.author.password'],
  ['users', 'ownedTeam.owner.password'],
  ['posts', 'author.password'],
  ['posts', 'comments.author.password'],
  ['posts', 'author.team.owner.password'],
  ['teams', 'owner.password'],
  ['teams', 'members.password'],
  ['comments', 'author.password'],
  ['comments', 'post.author.password'],
  ['tags', 'posts.author.password'],
  ['images', 'imageable.password'],
]

/** Eager-loading paths that reach `users` rows from every table. */
const WITH_PATHS: ReadonlyArray<[table: string, paths: string[]]> = [
  ['posts', ['author']],
  ['posts', ['comments.author', 'author.team.members']],
  ['posts', ['*']],
  ['posts', ['*.*', 'author.team.owner']],
  ['users', ['team.owner', 'team.members', 'ownedTeam.members']],
  ['users', ['*.*.*']],
  ['teams', ['owner', 'members.posts.author']],
  ['comments', ['author', 'post.author']],
  ['tags', ['posts.author']],
  ['images', ['imageable', 'imageable.team.owner']],
]

const encode = (params: Record<string, string>): string =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&')

/** Asserts that the request is rejected before any SQL runs, and that no error lists the hidden column. */
async function expectRefused(db: TestDatabase, table: string, query: string): Promise<QueryParamsError> {
  const { error, statements } = await statementsOf(db.knex, () =>
    applyQueryParams(db.knex(table), parseQueryParams(query), relationMap),
  )
  expect(error, `${table}?${query} was not refused`).to.be.instanceOf(QueryParamsError)
  expect(statements, `${table}?${query} ran SQL`).to.deep.equal([])
  const refused = error as QueryParamsError
  expect(refused.allowed ?? []).to.not.include('password')
  return refused
}

for (const db of testDatabases()) {
  describe(`security: users.password is never reachable (${db.name})`, () => {
    it('cannot be filtered on, in any spelling', async () => {
      for (const column of SPELLINGS) {
        for (const operator of ['=', '!=', 'like', 'in', '>']) {
          const error = await expectRefused(
            db,
            'users',
            encode({
              'wheres[0][column]': column,
              'wheres[0][operator]': operator,
              'wheres[0][value]': PASSWORD_HASHES[0] ?? '',
            }),
          )
          expect(['unknown_column', 'unknown_relation', 'invalid_value']).to.include(error.code)
        }
      }
    })

    it('cannot be reached through percent-encoding tricks in the raw query', async () => {
      for (const query of [
        'wheres[0][column]=pass%77ord&wheres[0][value]=x',
        'wheres%5B0%5D%5Bcolumn%5D=password&wheres%5B0%5D%5Bvalue%5D=x',
        'columns[0]=%70assword',
        'orders[0][column]=users%2Epassword',
      ]) {
        await expectRefused(db, 'users', query)
      }
    })

    it('cannot be probed with like prefixes, directly or through an or', async () => {
      for (const prefix of ['$', '$2b$%', '$2b$10$Q%', '%', '_%']) {
        await expectRefused(
          db,
          'users',
          encode({ 'wheres[0][column]': 'password', 'wheres[0][operator]': 'like', 'wheres[0][value]': prefix }),
        )
        await expectRefused(
          db,
          'users',
          encode({
            'wheres[0][column]': 'name',
            'wheres[0][value]': 'Alice',
            'wheres[1][column]': 'password',
            'wheres[1][operator]': 'like',
            'wheres[1][value]': prefix,
            'wheres[1][boolean]': 'or',
          }),
        )
      }
    })

    it('cannot be filtered on through a relation path, from any table', async () => {
      for (const [table, column] of RELATION_PATHS) {
        const error = await expectRefused(
          db,
          table,
          encode({ 'wheres[0][column]': column, 'wheres[0][operator]': 'like', 'wheres[0][value]': '$2b$%' }),
        )
        expect(error.code).to.equal('unknown_column')
        expect(error.param).to.equal('wheres[0][column]')
      }
    })

    it('cannot be ordered by, directly or through a to-one relation', async () => {
      for (const column of [...SPELLINGS, 'team.owner.password', 'ownedTeam.owner.password'])
        await expectRefused(db, 'users', encode({ 'orders[0][column]': column }))
      for (const [table, column] of [
        ['posts', 'author.password'],
        ['comments', 'post.author.password'],
        ['teams', 'owner.password'],
      ] as const) {
        await expectRefused(db, table, encode({ 'orders[0][column]': column, 'orders[0][direction]': 'desc' }))
      }
    })

    it('cannot be selected with columns', async () => {
      for (const column of SPELLINGS)
        await expectRefused(db, 'users', encode({ 'columns[0]': 'id', 'columns[1]': column }))
      for (const [table, column] of [
        ['posts', 'author.password'],
        ['teams', 'owner.password'],
      ] as const)
        await expectRefused(db, table, encode({ 'columns[0]': column }))
    })

    it('cannot be made distinct', async () => {
      for (const column of SPELLINGS) await expectRefused(db, 'users', encode({ 'distinct[0]': column }))
      await expectRefused(
        db,
        'users',
        encode({ 'distinct[0]': 'name', 'distinct[1]': 'password', 'columns[0]': 'name' }),
      )
    })

    it('is not a relation or a scope either', async () => {
      for (const key of ['relationsExists[0]', 'with[0]', 'scopes[0]']) {
        for (const name of ['password', 'team.password', 'posts.author.password'])
          await expectRefused(db, 'users', encode({ [key]: name }))
      }
    })

    it('is never returned: not by default, not in eager-loaded rows, not by .first() or paginate', async () => {
      const leaks: string[] = []
      const check = (label: string, value: unknown): void => {
        for (const path of findSecrets(value)) leaks.push(`${label}: ${path}`)
      }
      check('users', await applyQueryParams(db.knex('users'), parseQueryParams(''), relationMap))
      check(
        'users first',
        await applyQueryParams(db.knex('users'), parseQueryParams('with[0]=team.owner'), relationMap).first(),
      )
      for (const [table, paths] of WITH_PATHS) {
        const query = paths.map((path, index) => `with[${index}]=${encodeURIComponent(path)}`).join('&')
        const rows = rowsOf(await applyQueryParams(db.knex(table), parseQueryParams(query), relationMap))
        expect(rows.length, `${table}?${query}`).to.be.greaterThan(0)
        check(`${table}?${query}`, rows)
        const params = parseQueryParams(`${query}&page=1&limit=5`)
        check(
          `paginate ${table}?${query}`,
          await paginate(applyQueryParams(db.knex(table), params, relationMap), params),
        )
      }
      expect(leaks).to.deep.equal([])
    })
  })
}
