import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { countQuery } from '../../lib/read/counts.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { createPageDataSet, dropPageDataSet, guardedPageMap, pageMap } from '../apply/support/page-data-set.ts'
import { rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * A relation filter through a to-one hop the page has inner-joined for its order (a `required` belongsTo to a table
 * without a guard) tests the joined row: posts ordered by `author.name` with `author.name like ?` read
 * `pg_users.name like ?` on the order's join, and `author.team.name in (…)` goes on from it. A count, a probe and the
 * plain `.clone()` keep the subquery; a guarded or optional hop keeps it everywhere. The rows never change.
 */
const q = (s: string): RegExp => new RegExp(s.replace(/`/g, '[`"]'))
/** The subquery form of a filter through `author` from the base table. */
const SUBQUERY = q('(exists \\(select 1 from `pg_users`|`pg_posts`.`user_id` in \\(select `pg_users`.`id`)')
/** The author and team hops a page by `id` joins for its filters on MariaDB (`joinFilterHops`). */
const JOINED_AUTHOR_TEAM = q(
  'inner join `pg_users` on `pg_users`.`id` = `pg_posts`.`user_id` inner join `pg_teams` on ',
)
/** Posts by `id` desc whose author's name starts with `user 1`, then a filter on the author's team. */
const BY_ID_AUTHOR_NAMED =
  'orders[0][column]=id&orders[0][direction]=desc&wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=user 1%25&wheres[1][column]=author.team.name&wheres[1][operator]=in'

for (const db of testDatabases()) {
  describe(`relation filters through the order's joined hops (${db.name})`, function () {
    this.timeout(60_000)
    const apply = (request: string, map: RelationMap = pageMap): Knex.QueryBuilder =>
      applyQueryParams(db.knex('pg_posts'), parseQueryParams(request), map, { frequencyMemoMs: 0 })
    /** The page's statement as it ran (after any probe), and its rows against the plain clone's. */
    const ran = async (query: Knex.QueryBuilder): Promise<{ sql: string; rows: unknown[] }> => {
      const { queries, result } = await countQueries(db.knex, async () => rowsOf(await query))
      const sql = queries[queries.length - 1]?.sql ?? ''
      expect(result, 'the rows of the plain query').to.deep.equal(rowsOf(await query.clone()))
      return { sql, rows: result }
    }

    before(async () => {
      await createPageDataSet(db.knex)
    })

    after(async () => {
      await dropPageDataSet(db.knex)
    })

    it('tests the joined author and team rows, on the page and in the order cutoff bound; the count keeps the subqueries', async () => {
      const request =
        'orders[0][column]=author.name&orders[1][column]=title&wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=user 1%25&wheres[1][column]=author.team.name&wheres[1][operator]=in&wheres[1][value][0]=team 2&wheres[1][value][1]=team 3&limit=7&page=2'
      const query = apply(request)
      const { sql, rows } = await ran(query)
      expect(rows).to.have.length(7)
      expect(sql).not.to.match(SUBQUERY)
      expect(sql).to.match(q('`pg_users`.`name` (like|ilike) '))
      // The team hop is not joined: its filter goes on from the joined author (key first, listed or correlated).
      expect(sql).to.match(q('`pg_users`.`team_id` (= \\(select|in \\(select)|= `pg_users`.`team_id`'))
      if (db.name !== 'postgres') {
        // The bound walks the same hops: its copy of the conditions tests the joined rows too.
        const bound = sql.slice(sql.indexOf('coalesce((select'))
        expect(bound).to.match(q('`pg_users`.`name` like '))
        expect(bound).not.to.match(SUBQUERY)
      }
      expect(countQuery(query).toSQL().sql).to.match(SUBQUERY)
      expect(query.clone().toSQL().sql).to.match(SUBQUERY)
    })

    it('keeps an or of a hop filter and a base column test in one group, with the rows of the plain query', async () => {
      const query = apply(
        'orders[0][column]=author.name&orders[0][direction]=desc&wheres[0][column]=kind&wheres[0][value]=news&wheres[1][column]=author.name&wheres[1][operator]=like&wheres[1][value]=user 2%25&wheres[1][boolean]=or&wheres[2][column]=title&wheres[2][operator]=like&wheres[2][value]=%25 1%25&limit=9&page=3',
      )
      const { sql, rows } = await ran(query)
      expect(rows).to.have.length(9)
      expect(sql).not.to.match(SUBQUERY)
    })

    it('keeps the subquery through a guarded hop (a left join): the guard hides the author either way', async () => {
      const query = apply(
        'orders[0][column]=author.name&wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=user 1%25&limit=8&page=2',
        guardedPageMap,
      )
      const { sql, rows } = await ran(query)
      expect(rows).to.have.length(8)
      expect(sql).to.match(SUBQUERY)
    })

    it('MariaDB joins the hops of a filter the order does not join (joinFilterHops); the others keep the subquery', async () => {
      const request = `${BY_ID_AUTHOR_NAMED}&wheres[1][value][0]=team 2&wheres[1][value][1]=team 4&wheres[1][value][2]=team 5&wheres[2][column]=tags.name&wheres[2][operator]=in&wheres[2][value][0]=tag 3&wheres[2][value][1]=tag 4&wheres[2][value][2]=tag 5&limit=6&page=2`
      const query = apply(request)
      const { sql, rows } = await ran(query)
      expect(rows).to.have.length(6)
      if (db.name === 'mysql') {
        expect(sql).to.match(JOINED_AUTHOR_TEAM)
        expect(sql).to.match(q('`pg_users`.`name` like '))
        expect(sql).to.match(q('`pg_teams`.`name` in \\('))
        expect(sql).not.to.match(SUBQUERY)
        // The to-many filter stays a subquery.
        expect(sql).to.match(q('`pg_posts`.`id` in \\(select `pg_post_tag`.`post_id`'))
      } else {
        expect(sql).to.match(SUBQUERY)
        expect(sql).not.to.match(q('join `pg_users`'))
      }
      const count = countQuery(query).toSQL().sql
      expect(count).to.match(SUBQUERY)
      expect(count).not.to.match(q('inner join `pg_users`'))
    })

    it('MariaDB reads an `or` of filters through joined hops and column tests in one pass, not as the union of its branches', async () => {
      const request = `${BY_ID_AUTHOR_NAMED}&wheres[1][boolean]=or&wheres[1][value][0]=team 2&wheres[1][value][1]=team 4&wheres[2][column]=kind&wheres[2][value]=note&limit=6&page=2`
      const query = apply(request)
      const { sql, rows } = await ran(query)
      expect(rows).to.have.length(6)
      if (db.name === 'mysql') {
        expect(sql).to.match(JOINED_AUTHOR_TEAM)
        expect(sql).to.match(
          q(
            '`pg_users`.`name`\\) like lower\\([^)]*\\) collate utf8mb4_bin\\)\\) or `pg_posts`.`kind` = \\? and `pg_teams`.`name` in \\(',
          ),
        )
        expect(sql, sql).not.to.match(/kqp_branch|union/)
        expect(sql).not.to.match(SUBQUERY)
      } else {
        expect(sql).to.match(/kqp_branch_1/)
      }
    })

    it('keeps the subquery of a hop the order does not join on a guarded table (MariaDB too), or joins as optional (editor)', async () => {
      const unordered = apply(
        'orders[0][column]=id&wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=user 1%25&limit=8',
        guardedPageMap,
      )
      const guarded = await ran(unordered)
      expect(guarded.sql).to.match(SUBQUERY)
      expect(guarded.sql).not.to.match(q('join `pg_users`'))
      const optional = apply(
        'orders[0][column]=editor.name&wheres[0][column]=editor.name&wheres[0][operator]=like&wheres[0][value]=user 1%25&limit=8',
      )
      const { sql } = await ran(optional)
      expect(sql).to.match(
        q('(exists \\(select 1 from `pg_users`|`pg_posts`.`editor_id` in \\(select `pg_users`.`id`)'),
      )
    })
  })
}
