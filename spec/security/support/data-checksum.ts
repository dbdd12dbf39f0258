import { createHash } from 'node:crypto'
import type { Knex } from 'knex'
import { DEMO_TABLES } from '../../../fixtures/tables.ts'
import { normalizeRows } from '../../support/rows.ts'

/**
 * A fingerprint of every demo table, hidden columns included: each table's row count and a SHA-256 of
 * its rows in key order. Equal fingerprints before and after a test mean it changed no data.
 *
 * @example
 * const before = await dataChecksum(db.knex)
 * expect(await dataChecksum(db.knex)).to.equal(before)
 */
export async function dataChecksum(knex: Knex): Promise<string> {
  const parts: string[] = []
  for (const table of DEMO_TABLES) {
    const query = knex(table).select('*')
    const rows = await (table === 'post_tag' ? query.orderBy(['post_id', 'tag_id']) : query.orderBy('id'))
    const digest = createHash('sha256')
      .update(JSON.stringify(normalizeRows(rows as Array<Record<string, unknown>>)))
      .digest('hex')
    parts.push(`${table}:${rows.length}:${digest}`)
  }
  return parts.join(' ')
}
