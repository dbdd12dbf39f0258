import { expect } from 'chai'
import type { Knex } from 'knex'
import { createRentals, RENTALS_RATINGS } from '../../fixtures/rentals/create-rentals.ts'
import { seedRentals } from '../../fixtures/rentals/seed-rentals.ts'
import { applyQueryParams, defineRelationMap, parseQueryParams, type RelationMap } from '../../lib/index.ts'
import { introspectRelationMap } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { testDatabases, type TestDatabase, type TestDatabaseName } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'

const where = (column: string, operator: string, value: string): string =>
  `wheres[0][column]=${column}&wheres[0][operator]=${encodeURIComponent(operator)}&wheres[0][value]=${encodeURIComponent(value)}`

/** The where clause each database gets, after `where `. */
const WHERES: Record<string, Record<TestDatabaseName, string>> = {
  enumLike: {
    sqlite: "`film`.`rating` like ? escape '\\'",
    postgres: `"film"."rating"::text ilike ?`,
    mysql:
      '(`film`.`rating` like convert(? using utf8mb4) collate utf8mb4_general_ci and lower(`film`.`rating`) like lower(convert(? using utf8mb4) collate utf8mb4_bin))',
  },
  enumCompare: { sqlite: '`film`.`rating` > ?', postgres: `"film"."rating"::text > ?`, mysql: '`film`.`rating` > ?' },
  enumEqual: {
    sqlite: '`film`.`rating` in (?, ?)',
    postgres: `"film"."rating" in (?, ?)`,
    mysql: '`film`.`rating` in (?, ?)',
  },
  charEqual: {
    sqlite: "rtrim(`language`.`name`, ' ') = ?",
    postgres: `"language"."name" = ?`,
    mysql: '`language`.`name` = ?',
  },
  charLike: {
    sqlite: "rtrim(`language`.`name`, ' ') like ? escape '\\'",
    postgres: `"language"."name"::text ilike ?`,
    mysql:
      '(`language`.`name` like convert(? using utf8mb4) collate utf8mb4_general_ci and lower(`language`.`name`) like lower(convert(? using utf8mb4) collate utf8mb4_bin))',
  },
}

/** The client's conditions, which the library writes in one group: `where (…)`. */
const whereOf = (query: Knex.QueryBuilder): string =>
  query
    .toSQL()
    .sql.replace(/^.* where \(/, '')
    .replace(/\)( order by .*)?( limit .*)?$/, '')
const ids = (rows: unknown, key: string): unknown[] => (rows as Array<Record<string, unknown>>).map((row) => row[key])

for (const database of testDatabases()) {
  describe(`enums and CHAR(n) of a schema written by others (${database.label})`, function () {
    this.timeout(120_000)
    let own: TestDatabase
    let map: RelationMap
    const read = (table: string, query: string): Knex.QueryBuilder =>
      applyQueryParams(own.knex(table), parseQueryParams(query), map)

    before(async () => {
      own = await freshDatabase(database, 'text_columns')
      await createRentals(own.knex)
      await seedRentals(own.knex)
      map = await introspectRelationMap(own.knex)
    })

    after(async () => {
      await dropFreshDatabase(own)
    })

    it('the generator declares the enum with its values (not sortable) and the CHAR(20) column as padded', () => {
      expect(map['film']?.columns['rating']).to.deep.equal({ type: 'string', values: RENTALS_RATINGS, sortable: false })
      expect(map['language']?.columns['name']).to.deep.equal({ type: 'string', padded: true, nullable: false })
    })

    it('like on an enum reads it as text (PostgreSQL has no like on an enum: it was a 500)', async () => {
      const query = read('film', `${where('rating', 'like', 'pg%')}&orders[0][column]=film_id`)
      expect(whereOf(query)).to.equal(WHERES['enumLike']?.[database.name])
      const rows = (await query) as Array<{ rating: string }>
      expect(rows.length).to.be.above(0)
      expect(new Set(rows.map((row) => row.rating))).to.deep.equal(new Set(['PG', 'PG-13']))
    })

    it('comparisons on an enum compare its text, as on MySQL and SQLite (PostgreSQL would use declaration order)', async () => {
      const query = read('film', `${where('rating', '>', 'NC-17')}&orders[0][column]=film_id`)
      expect(whereOf(query)).to.equal(WHERES['enumCompare']?.[database.name])
      expect(new Set(((await query) as Array<{ rating: string }>).map((row) => row.rating))).to.deep.equal(
        new Set(['PG', 'PG-13', 'R']),
      )
    })

    it('= and in take only the declared values, bound against the column itself; any other is a 400 listing them', async () => {
      const query = read(
        'film',
        'wheres[0][column]=rating&wheres[0][operator]=in&wheres[0][value][0]=G&wheres[0][value][1]=R&orders[0][column]=film_id',
      )
      expect(whereOf(query)).to.equal(WHERES['enumEqual']?.[database.name])
      expect(new Set(((await query) as Array<{ rating: string }>).map((row) => row.rating))).to.deep.equal(
        new Set(['G', 'R']),
      )
      const error = expectQueryParamsError(() => read('film', where('rating', '=', 'X')), {
        code: 'invalid_value',
        param: 'wheres[0][value]',
        allowed: RENTALS_RATINGS,
      })
      expect(error.allowed).to.deep.equal(RENTALS_RATINGS)
      expectQueryParamsError(
        () =>
          read(
            'film',
            'wheres[0][column]=rating&wheres[0][operator]=notIn&wheres[0][value][0]=G&wheres[0][value][1]=g',
          ),
        {
          code: 'invalid_value',
          param: 'wheres[0][value][1]',
          allowed: RENTALS_RATINGS,
        },
      )
      expectQueryParamsError(() => read('film', where('rating', '!=', 'pg')), {
        code: 'invalid_value',
        param: 'wheres[0][value]',
        allowed: RENTALS_RATINGS,
      })
    })

    it('CHAR(20) values come back without their padding, and =, in and like find them on every database', async () => {
      const equal = read('language', where('name', '=', 'Mandarin'))
      expect(whereOf(equal)).to.equal(WHERES['charEqual']?.[database.name])
      const rows = (await equal) as Array<{ name: string }>
      expect(rows.map((row) => row.name)).to.deep.equal(['Mandarin'])
      const like = read('language', where('name', 'like', 'mandarin'))
      expect(whereOf(like)).to.equal(WHERES['charLike']?.[database.name])
      expect(ids(await like, 'language_id')).to.deep.equal([4])
      const list = read(
        'language',
        'wheres[0][column]=name&wheres[0][operator]=in&wheres[0][value][0]=English&wheres[0][value][1]=Mandarin&orders[0][column]=language_id',
      )
      expect(((await list) as Array<{ name: string }>).map((row) => row.name)).to.deep.equal(['English', 'Mandarin'])
      const all = (await read('language', 'orders[0][column]=language_id')) as Array<{ name: string }>
      expect(all.map((row) => row.name)).to.deep.equal([
        'English',
        'Italian',
        'Japanese',
        'Mandarin',
        'French',
        'German',
      ])
      const loaded = (await read('film', 'with[0]=language&orders[0][column]=film_id&limit=3')) as Array<{
        language: { name: string }
      }>
      for (const film of loaded) expect(film.language.name).to.not.match(/ $/)
    })
  })
}

describe('values and padded in the map', () => {
  const mapWith = (spec: unknown): unknown => ({
    film: { primaryKey: 'film_id', columns: { film_id: 'integer', rating: spec } },
  })
  const messageOf = (spec: unknown): string => {
    try {
      defineRelationMap(mapWith(spec) as RelationMap)
      return 'no error'
    } catch (error) {
      return (error as Error).message
    }
  }

  it('are plain Errors naming the path: only on string columns, values a non-empty list of distinct strings', () => {
    expect(messageOf({ type: 'integer', values: ['1'] })).to.include(
      'film.columns.rating.values: only applies to string columns',
    )
    expect(messageOf({ type: 'integer', padded: true })).to.include(
      'film.columns.rating.padded: only applies to string columns',
    )
    expect(messageOf({ type: 'string', values: [] })).to.include(
      'film.columns.rating.values: expected a non-empty list',
    )
    expect(messageOf({ type: 'string', values: ['G', 3] })).to.include(
      'film.columns.rating.values.1: expected a string',
    )
    expect(messageOf({ type: 'string', values: ['G', 'G'] })).to.include(
      "film.columns.rating.values.1: 'G' is listed twice",
    )
    expect(messageOf({ type: 'string', padded: 'yes' })).to.include(
      'film.columns.rating.padded: expected true or false',
    )
    expect(messageOf({ type: 'string', values: ['G', 'PG'] })).to.equal('no error')
  })
})
