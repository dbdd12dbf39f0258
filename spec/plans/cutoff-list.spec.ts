import { expect } from 'chai'
import type { Knex } from 'knex'
import { guardedFormStatements } from '../../lib/apply/page-rewrite.ts'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { explainPlan } from './support/explain-plan.ts'

/**
 * Posts ordered by their author's name with a selective title filter: on MariaDB and SQLite the order cutoff walks
 * `users (name)` through every user when few posts match, so a probe chooses to read such a page base table
 * first (posts filtered, each author read by its primary key) and sort it.
 */
const map = defineRelationMap({
  cl_users: { columns: { id: 'integer', name: { type: 'string', nullable: false } } },
  cl_posts: {
    columns: { id: 'integer', user_id: 'integer', title: { type: 'string', nullable: false } },
    relations: {
      author: { type: 'belongsTo', table: 'cl_users', foreignKey: 'user_id', required: true },
      notes: { type: 'hasMany', table: 'cl_notes', foreignKey: 'post_id' },
    },
  },
  cl_notes: { columns: { id: 'integer', post_id: 'integer' } },
})

const USERS = 3_000
const POSTS = 30_000
const userOf = (post: number): number => ((post * 7) % USERS) + 1
const titleOf = (post: number): string => (post % 1_000 === 0 ? `rare ${post}` : `post ${post}`)
const nameOf = (user: number): string => `user ${String((user * 37) % USERS).padStart(5, '0')}`
const RARE = 'orders[0][column]=author.name&wheres[0][column]=title&wheres[0][operator]=like&wheres[0][value]=rare%25'
const COMMON = 'orders[0][column]=author.name&wheres[0][column]=title&wheres[0][operator]=like&wheres[0][value]=post%25'

for (const db of testDatabases()) {
  describe(`a page ordered through a joined hop with a selective filter (${db.name})`, function () {
    this.timeout(120_000)
    const apply = (request: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('cl_posts'), parseQueryParams(request), map, { frequencyMemoMs: 0 })

    before(async () => {
      await db.knex.schema.dropTableIfExists('cl_notes')
      await db.knex.schema.dropTableIfExists('cl_posts')
      await db.knex.schema.dropTableIfExists('cl_users')
      await db.knex.schema.createTable('cl_users', (table) => {
        table.increments('id')
        table.string('name', 40).notNullable().index('cl_users_name')
      })
      await db.knex.schema.createTable('cl_posts', (table) => {
        table.increments('id')
        table.integer('user_id').notNullable().index('cl_posts_user_id')
        table.string('title', 40).notNullable()
      })
      const users = Array.from({ length: USERS }, (_, index) => ({ id: index + 1, name: nameOf(index + 1) }))
      await db.knex.batchInsert('cl_users', users, 500)
      const posts = Array.from({ length: POSTS }, (_, index) => ({
        id: index + 1,
        user_id: userOf(index + 1),
        title: titleOf(index + 1),
      }))
      await db.knex.batchInsert('cl_posts', posts, 500)
      await db.knex.schema.createTable('cl_notes', (table) => {
        table.increments('id')
        table.integer('post_id').notNullable().index('cl_notes_post_id')
      })
      // A note on every seventh post, two on every 2,000th (some of the rare posts).
      const notes = Array.from({ length: POSTS / 7 }, (_, index) => ({ post_id: (index + 1) * 7 }))
      for (let post = 2_000; post <= POSTS; post += 2_000) notes.push({ post_id: post }, { post_id: post })
      await db.knex.batchInsert('cl_notes', notes, 500)
      await db.knex.raw(db.name === 'mysql' ? 'analyze table cl_users, cl_posts, cl_notes' : 'analyze')
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('cl_notes')
      await db.knex.schema.dropTableIfExists('cl_posts')
      await db.knex.schema.dropTableIfExists('cl_users')
    })

    it('returns the rows of the plain query, ordered by the author name then the id', async () => {
      const query = apply(`${RARE}&limit=10&page=2`)
      const expected = Array.from({ length: POSTS }, (_, index) => index + 1)
        .filter((post) => titleOf(post).startsWith('rare'))
        .sort((a, b) => nameOf(userOf(a)).localeCompare(nameOf(userOf(b))) || a - b)
        .slice(10, 20)
      const rows = (await query) as Array<{ id: number }>
      expect(rows.map((row) => row.id)).to.deep.equal(expected)
      expect(rows.map((row) => row.id)).to.deep.equal(
        ((await query.clone()) as Array<{ id: number }>).map((row) => row.id),
      )
    })

    if (db.name !== 'mysql' && db.name !== 'sqlite') {
      it('no probe on PostgreSQL: it has no order cutoff to choose against', async () => {
        expect(guardedFormStatements(apply(`${RARE}&limit=10&page=2`))).to.equal(undefined)
      })
      return
    }
    const name = db.name === 'mysql' ? 'MariaDB' : 'SQLite'

    it(`${name}: 30 matching posts (fewer than 4 × 20) are read posts first, each author by its primary key, one probe before`, async () => {
      const query = apply(`${RARE}&limit=10&page=2`)
      const forms = guardedFormStatements(query)
      if (forms === undefined) throw new Error('no probe')
      const { lines, text } = await explainPlan(db.knex, db.name, forms.list)
      if (db.name === 'mysql') {
        expect(lines[0], text).to.match(/^SIMPLE cl_posts type=ALL /)
        expect(lines[1], text).to.match(/^SIMPLE cl_users type=eq_ref key=PRIMARY /)
      } else {
        expect(lines[0], text).to.match(/^SCAN cl_posts$/)
        expect(lines[1], text).to.match(/^SEARCH cl_users USING INTEGER PRIMARY KEY /)
      }
      const ran = await countQueries(db.knex, async () => await query)
      expect(ran.queries.map((statement) => statement.sql)).to.have.length(2)
      expect(ran.queries[1]?.sql).to.equal(forms.list.sql)
    })

    it(`${name}: with a later order by a count, the rare page is still read posts first after its probe, the count's grouped join kept`, async () => {
      const query = apply(`${RARE}&orders[1][column]=notesCount&orders[1][direction]=desc&limit=10&page=2`)
      const forms = guardedFormStatements(query)
      if (forms === undefined) throw new Error('no probe')
      expect(forms.list.sql).to.include('kqp_aggregate')
      expect(forms.list.sql, 'no cutoff bound').to.not.include('coalesce((select')
      const ran = await countQueries(db.knex, async () => (await query) as Array<{ id: number }>)
      expect(ran.queries.map((statement) => statement.sql)).to.deep.equal([ran.queries[0]?.sql, forms.list.sql])
      const plain = (await query.clone()) as Array<{ id: number }>
      expect(plain).to.have.length(10)
      expect(ran.result.map((row) => row.id)).to.deep.equal(plain.map((row) => row.id))
    })

    it('the detector has teeth: the cutoff form of the same page walks the whole users (name) index', async () => {
      const forms = guardedFormStatements(apply(`${RARE}&limit=10&page=2`))
      if (forms === undefined) throw new Error('no probe')
      const { lines, text } = await explainPlan(db.knex, db.name, forms.walk)
      if (db.name === 'mysql') {
        // The bound's one-row derived table is read first, while MariaDB plans; then the page's first table.
        expect(lines[0], text).to.match(/ <derived\d+> type=system /)
        expect(lines[1], text).to.match(/ cl_users type=(index|range) key=cl_users_name /)
      } else {
        // The bound is a scalar subquery: a range of users (name) for the page, a walk of it for the bound.
        expect(lines[0], text).to.match(/^SEARCH cl_users USING (COVERING )?INDEX cl_users_name \(name<\?\)$/)
        expect(text).to.match(/SCAN cl_users USING (COVERING )?INDEX cl_users_name\b/)
      }
    })

    it(`${name}: 29,970 matching posts keep the cutoff (the walk stops at the page)`, async () => {
      const query = apply(`${COMMON}&limit=10&page=2`)
      const forms = guardedFormStatements(query)
      if (forms === undefined) throw new Error('no probe')
      const ran = await countQueries(db.knex, async () => await query)
      expect(ran.queries[1]?.sql).to.equal(forms.walk.sql)
      expect(forms.walk.sql).to.include('coalesce(')
    })
  })
}
