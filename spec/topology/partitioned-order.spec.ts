import { expect } from 'chai'
import { checkRelationMap } from '../../lib/introspect.ts'
import { defineRelationMap } from '../../lib/index.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

/** Rows of the partitioned table: enough that a whole-table sort and a 20-row index read differ in the plan. */
const ROWS = 20_001

const partedMap = defineRelationMap({
  kqp_parted: { columns: { id: 'integer', created_at: { type: 'datetime', nullable: false } } },
})

/** The `indexes: true` warnings of `checkRelationMap` about the partitioned table, as kind, path and message. */
async function orderWarnings(db: TestDatabase): Promise<Array<{ kind: string; path: string; message: string }>> {
  const problems = await checkRelationMap(db.knex, partedMap, { indexes: true })
  return problems
    .filter((problem) => problem.kind.startsWith('sortable_'))
    .map(({ kind, path, message }) => ({ kind, path, message }))
}

for (const db of testDatabases().filter((candidate) => candidate.engine === 'mysql')) {
  describe(`a page ordered by created_at, id on a partitioned InnoDB table (${db.label})`, function () {
    this.timeout(60_000)

    before(async () => {
      await db.knex.raw('drop table if exists kqp_parted')
      await db.knex.raw(
        'create table kqp_parted (id int primary key, created_at datetime not null, key by_created (created_at)) engine=innodb partition by hash(id) partitions 4',
      )
      await db.knex.raw(`insert into kqp_parted select seq, '2024-01-01' + interval seq minute from seq_1_to_${ROWS}`)
      await db.knex.raw('analyze table kqp_parted')
    })

    after(async () => {
      await db.knex.raw('drop table if exists kqp_parted')
    })

    const plan = async (order: string): Promise<{ key: unknown; rows: number; extra: string }> => {
      const [rows] = (await db.knex.raw(`explain select id from kqp_parted order by ${order} limit 20`)) as [
        Array<Record<string, unknown>>,
      ]
      const row = rows[0] ?? {}
      return { key: row['key'], rows: Number(row['rows']), extra: String(row['Extra']) }
    }

    it('(created_at) serves order by created_at alone, but the primary-key tie-breaker makes it a filesort of every row', async () => {
      expect(await plan('created_at')).to.deep.equal({ key: 'by_created', rows: 20, extra: 'Using index' })
      const tieBroken = await plan('created_at, id')
      expect(tieBroken.extra).to.include('Using filesort')
      expect(tieBroken.rows).to.be.above(ROWS / 2)
      expect((await plan('created_at desc, id desc')).extra).to.include('Using filesort')
      expect(await orderWarnings(db)).to.deep.equal([
        {
          kind: 'sortable_partitioned_index',
          path: 'kqp_parted.columns.created_at',
          message:
            'kqp_parted is partitioned, and its indexes are per partition: an index on (created_at) does not serve order by created_at, id, ' +
            'so a page sorts every matching row; create index on kqp_parted (created_at, id)',
        },
      ])
    })

    it('(created_at, id) serves it: 20 rows read from the index, no filesort', async () => {
      await db.knex.raw('alter table kqp_parted add key by_created_id (created_at, id)')
      expect(await plan('created_at, id')).to.deep.equal({ key: 'by_created_id', rows: 20, extra: 'Using index' })
      expect((await plan('created_at desc, id desc')).extra).not.to.include('filesort')
      expect(await orderWarnings(db)).to.deep.equal([])
    })
  })
}

for (const db of testDatabases().filter((candidate) => candidate.engine === 'postgres-server')) {
  describe(`a page ordered by created_at, id on a hash-partitioned PostgreSQL table (${db.label})`, function () {
    this.timeout(60_000)

    before(async () => {
      await db.knex.raw('drop table if exists kqp_parted')
      await db.knex.raw(
        'create table kqp_parted (id int primary key, created_at timestamptz not null) partition by hash (id)',
      )
      for (let remainder = 0; remainder < 4; remainder += 1) {
        await db.knex.raw(
          `create table kqp_parted_${remainder} partition of kqp_parted for values with (modulus 4, remainder ${remainder})`,
        )
      }
      await db.knex.raw('create index on kqp_parted (created_at)')
      await db.knex.raw(
        `insert into kqp_parted select n, '2024-01-01'::timestamptz + n * interval '1 minute' from generate_series(1, ${ROWS}) n`,
      )
      await db.knex.raw('analyze kqp_parted')
    })

    after(async () => {
      await db.knex.raw('drop table if exists kqp_parted')
    })

    it("(created_at) serves it: a Merge Append of the partitions' index scans, ties sorted incrementally, about 20 rows read", async () => {
      const { rows } = (await db.knex.raw(
        'explain (analyze, costs off, timing off, summary off) select id from kqp_parted order by created_at desc, id desc limit 20',
      )) as {
        rows: Array<{ 'QUERY PLAN': string }>
      }
      const lines = rows.map((row) => row['QUERY PLAN'].trim())
      expect(lines[1]).to.match(/^-> {2}Incremental Sort/)
      expect(lines.some((line) => line.startsWith('->  Merge Append'))).to.equal(true)
      const scanned = lines
        .filter((line) => /Index Scan Backward using kqp_parted_\d_created_at_idx/.test(line))
        .map((line) => Number(/actual rows=(\d+)/.exec(line)?.[1]))
      expect(scanned).to.have.length(4)
      expect(scanned.reduce((sum, count) => sum + count, 0)).to.be.below(30)
      expect(await orderWarnings(db)).to.deep.equal([])
    })
  })
}
