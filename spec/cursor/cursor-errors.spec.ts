import { expect } from 'chai'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { decodeCursor, encodeCursor } from '../../lib/cursor/cursor-token.ts'
import { QueryParamsError, type QueryParamsErrorCode } from '../../lib/errors/query-params-error.ts'
import { cursorPaginate, type CursorPaginateOptions } from '../../lib/index.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { createCursorDataSet, cursorMap, dropCursorDataSet } from './support/cursor-data-set.ts'

/**
 * A cursor is signed and bound: tampered, garbage, oversized, expired or another secret's is `invalid_cursor`; one
 * of another request (filters, orders, scopes, distinct, another table) or another caller (guard context) is
 * `cursor_mismatch`; rotation verifies with every secret of the list. Never a database error: no statement runs.
 */

const SECRET = 'a test secret that is long enough for hmac-sha256'
const OLD_SECRET = 'the secret that signed before rotation, 32+ bytes'

type Tenant = { tenant: number }
const guardedMap: RelationMap<Tenant> = {
  ...cursorMap,
  cur_items: {
    ...cursorMap.cur_items,
    guard: (query, { table, context }) => void query.where(`${table}.rank`, '<>', context.tenant),
  },
  cur_groups: cursorMap.cur_groups,
  cur_notes: cursorMap.cur_notes,
  cur_pairs: cursorMap.cur_pairs,
}

for (const db of testDatabases()) {
  describe(`cursorPaginate cursors (${db.name})`, function () {
    this.timeout(30_000)
    before(async () => {
      await createCursorDataSet(db.knex)
    })
    after(async () => {
      await dropCursorDataSet(db.knex)
    })

    const page = (request: string, options: Partial<CursorPaginateOptions> = {}, table = 'cur_items') => {
      const params = parseQueryParams(request)
      return cursorPaginate(applyQueryParams(db.knex(table), params, cursorMap), params, { secret: SECRET, ...options })
    }
    const tenantPage = (request: string, tenant: number) => {
      const params = parseQueryParams(request)
      return cursorPaginate(
        applyQueryParams(db.knex('cur_items'), params, guardedMap, { context: { tenant } }),
        params,
        { secret: SECRET },
      )
    }
    const ORDER = 'orders[0][column]=at&orders[0][direction]=desc&limit=5'
    const nextOf = async (request: string, options: Partial<CursorPaginateOptions> = {}): Promise<string> => {
      const { meta } = await page(request, options)
      expect(meta.next_cursor).to.be.a('string')
      return meta.next_cursor ?? ''
    }
    /** Asserts the page is refused with `code` on `param` before any statement runs. */
    const refused = async (
      run: () => Promise<unknown>,
      code: QueryParamsErrorCode,
      param = 'cursor',
    ): Promise<void> => {
      const { result } = await countQueries(db.knex, async () => {
        try {
          await run()
          return undefined
        } catch (error) {
          return error
        }
      }).then(({ result: error, queries }) => {
        expect(queries, 'statements run').to.deep.equal([])
        return { result: error }
      })
      expect(result).to.be.instanceOf(QueryParamsError)
      const error = result as QueryParamsError
      expect({ status: error.status, code: error.code, param: error.param }).to.deep.equal({ status: 400, code, param })
    }

    it("a changed character anywhere, a cut cursor, garbage or another secret's is invalid_cursor", async () => {
      const cursor = await nextOf(ORDER)
      const [body = '', signature = ''] = cursor.split('.')
      const flip = (text: string, at: number): string =>
        text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1)
      for (const forged of [
        `${flip(body, 5)}.${signature}`,
        `${body}.${flip(signature, 3)}`,
        `${body}.${signature.slice(0, -2)}`,
        `${body}.`,
        'abc.def',
        `e30.${signature}`,
      ]) {
        await refused(() => page(`${ORDER}&cursor=${forged}`), 'invalid_cursor')
      }
      const foreign = await nextOf(ORDER, { secret: OLD_SECRET })
      await refused(() => page(`${ORDER}&cursor=${foreign}`), 'invalid_cursor')
    })

    it('a forged position (values re-signed with a guessed secret) is invalid_cursor', async () => {
      const cursor = await nextOf(ORDER)
      const payload = decodeCursor(cursor, [Buffer.from(SECRET)], 'cursor')
      const forged = encodeCursor(
        { ...payload, values: ['1999-01-01 00:00:00', '1'] },
        Buffer.from('guessed guessed guessed guessed guessed'),
      )
      await refused(() => page(`${ORDER}&cursor=${forged}`), 'invalid_cursor')
    })

    it('garbage, a list, or more than 2,048 characters is invalid_cursor when parsed', () => {
      for (const query of [
        'cursor=not%20a%20cursor',
        'cursor[0]=a.b',
        `cursor=${'a'.repeat(2_100)}.${'b'.repeat(43)}`,
        'cursor',
      ]) {
        expectQueryParamsError(() => parseQueryParams(query), {
          code: 'invalid_cursor',
          param: query.startsWith('cursor[') ? 'cursor' : 'cursor',
        })
      }
    })

    it('an expired cursor (older than maxAge seconds) is invalid_cursor; a fresh one is served', async () => {
      const cursor = await nextOf(ORDER)
      const payload = decodeCursor(cursor, [Buffer.from(SECRET)], 'cursor')
      const old = encodeCursor({ ...payload, issuedAt: payload.issuedAt - 120 }, Buffer.from(SECRET))
      await refused(() => page(`${ORDER}&cursor=${old}`, { maxAge: 60 }), 'invalid_cursor')
      const fresh = await page(`${ORDER}&cursor=${cursor}`, { maxAge: 60 })
      expect(fresh.data).to.have.length(5)
    })

    it('rotation: a cursor signed with the old secret reads with [new, old], and the next cursor is signed with the new one', async () => {
      const old = await nextOf(ORDER, { secret: OLD_SECRET })
      const rotated = await page(`${ORDER}&cursor=${old}`, { secret: [SECRET, OLD_SECRET] })
      expect(rotated.data).to.have.length(5)
      const next = rotated.meta.next_cursor ?? ''
      expect(() => decodeCursor(next, [Buffer.from(SECRET)], 'cursor')).to.not.throw()
      expect(() => decodeCursor(next, [Buffer.from(OLD_SECRET)], 'cursor')).to.throw(QueryParamsError)
      await refused(() => page(`${ORDER}&cursor=${old}`, { secret: SECRET }), 'invalid_cursor')
    })

    it('a cursor of another request is cursor_mismatch: another filter, order, distinct, relation filter or table', async () => {
      const cursor = await nextOf(ORDER)
      for (const other of [
        'wheres[0][column]=rank&wheres[0][value]=1&orders[0][column]=at&orders[0][direction]=desc',
        'orders[0][column]=at&orders[0][direction]=asc',
        'orders[0][column]=at&orders[0][direction]=desc&distinct[0]=at',
        'orders[0][column]=at&orders[0][direction]=desc&relations_exists[0]=notes',
      ]) {
        await refused(() => page(`${other}&limit=5&cursor=${cursor}`), 'cursor_mismatch')
      }
      const pairs = (await page('orders[0][column]=label&limit=5', {}, 'cur_pairs')).meta.next_cursor ?? ''
      await refused(() => page(`${ORDER}&cursor=${pairs}`), 'cursor_mismatch')
      await refused(() => page(`orders[0][column]=label&limit=5&cursor=${cursor}`, {}, 'cur_pairs'), 'cursor_mismatch')
    })

    it('a cursor is valid with another limit (and with the other spelling of every key)', async () => {
      const cursor = await nextOf(ORDER)
      const wider = await page(`orders[0][column]=at&orders[0][direction]=desc&limit=9&cursor=${cursor}`)
      const narrower = await page(`orders[0][column]=at&orders[0][direction]=desc&limit=5&cursor=${cursor}`)
      expect(wider.data.slice(0, 5)).to.deep.equal(narrower.data)
    })

    it('a cursor of another caller (another guard context) is cursor_mismatch', async () => {
      const first = await tenantPage(ORDER, 1)
      expect(first.data.every((row) => row.rank !== 1)).to.equal(true)
      const cursor = first.meta.next_cursor ?? ''
      await refused(() => tenantPage(`${ORDER}&cursor=${cursor}`, 2), 'cursor_mismatch')
      const same = await tenantPage(`${ORDER}&cursor=${cursor}`, 1)
      expect(same.data).to.have.length(5)
    })

    it('cursor with page or offset is a 400 naming page or offset', async () => {
      const cursor = await nextOf(ORDER)
      await refused(() => page(`${ORDER}&cursor=${cursor}&page=2`), 'invalid_cursor', 'page')
      await refused(() => page(`${ORDER}&cursor=${cursor}&offset=5`), 'invalid_cursor', 'offset')
    })

    it('a missing or short secret is a plain Error naming the option, not a 400', async () => {
      const params = parseQueryParams(ORDER)
      const query = applyQueryParams(db.knex('cur_items'), params, cursorMap)
      for (const secret of [undefined, '', 'short', ['a secret that is long enough for hmac-sha256!', 'short']]) {
        let thrown: unknown
        try {
          await cursorPaginate(query, params, { secret } as CursorPaginateOptions)
        } catch (error) {
          thrown = error
        }
        expect(thrown).to.be.instanceOf(Error).and.not.instanceOf(QueryParamsError)
        expect((thrown as Error).message).to.match(/options\.secret/)
      }
    })

    it('a builder that applyQueryParams did not return is a plain Error', async () => {
      let thrown: unknown
      try {
        await cursorPaginate(db.knex('cur_items'), {}, { secret: SECRET })
      } catch (error) {
        thrown = error
      }
      expect(thrown).to.be.instanceOf(Error).and.not.instanceOf(QueryParamsError)
      expect((thrown as Error).message).to.include('applyQueryParams')
    })
  })
}
