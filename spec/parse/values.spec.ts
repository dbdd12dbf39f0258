import { expect } from 'chai'
import { parseQueryParams } from '../../lib/index.ts'
import { OPERATORS, type WhereDescription } from '../../lib/query-params.ts'

const where = (query: string): WhereDescription | undefined => parseQueryParams(query).wheres?.[0]

describe('parseQueryParams: values', () => {
  describe('wheres', () => {
    it('defaults a missing operator to = and a missing boolean to and', () => {
      expect(where('wheres[0][column]=name&wheres[0][value]=Bob')).to.deep.equal({
        column: 'name',
        operator: '=',
        value: 'Bob',
        boolean: 'and',
      })
    })

    it('accepts every operator of the format', () => {
      for (const operator of OPERATORS) {
        const list = ['in', 'notIn', 'between', 'notBetween'].includes(operator)
        const value = list ? 'wheres[0][value][0]=1&wheres[0][value][1]=2' : 'wheres[0][value]=1'
        const parsed = where(`wheres[0][column]=id&wheres[0][operator]=${encodeURIComponent(operator)}&${value}`)
        expect(parsed?.operator, operator).to.equal(operator)
      }
    })

    it('reads operators, booleans case-insensitively, and the SQL spellings <>, not in, not between', () => {
      expect(
        where('wheres[0][column]=a&wheres[0][operator]=LIKE&wheres[0][value]=x&wheres[0][boolean]=OR'),
      ).to.deep.equal({
        column: 'a',
        operator: 'like',
        value: 'x',
        boolean: 'or',
      })
      expect(where('wheres[0][column]=a&wheres[0][operator]=NOTIN')?.operator).to.equal('notIn')
      expect(where('wheres[0][column]=a&wheres[0][operator]=%3C%3E&wheres[0][value]=1')?.operator).to.equal('!=')
      expect(where('wheres[0][column]=a&wheres[0][operator]=not%20in&wheres[0][value][0]=1')?.operator).to.equal(
        'notIn',
      )
      expect(
        where('wheres[0][column]=a&wheres[0][operator]=not+between&wheres[0][value][0]=1&wheres[0][value][1]=2')
          ?.operator,
      ).to.equal('notBetween')
    })

    it('keeps value text exactly (spaces, %, _, backslashes), trimming only the column', () => {
      expect(where('wheres[0][column]=%20title%20&wheres[0][value]=%20a%25_%5C%20')).to.deep.equal({
        column: 'title',
        operator: '=',
        value: ' a%_\\ ',
        boolean: 'and',
      })
    })

    it('reads null from a bare value key and keeps the string "null" (whereNull) as text for the validator', () => {
      expect(where('wheres[0][column]=body&wheres[0][value]')?.value).to.equal(null)
      expect(where('wheres[0][column]=body&wheres[0][value]=null')?.value).to.equal('null')
    })

    it('reads in/notIn values as a list: indexed, [] appended, a single scalar, or missing (empty list)', () => {
      expect(
        where('wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=5')?.value,
      ).to.deep.equal(['1', '5'])
      expect(
        where('wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][]=1&wheres[0][value][]=5')?.value,
      ).to.deep.equal(['1', '5'])
      expect(where('wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value]=7')?.value).to.deep.equal(['7'])
      expect(where('wheres[0][column]=id&wheres[0][operator]=notIn')?.value).to.deep.equal([])
    })

    it('keeps null members of an in list', () => {
      expect(
        where('wheres[0][column]=team_id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]')?.value,
      ).to.deep.equal(['1', null])
    })

    it('reads 25+ wheres from a raw query string, in index order', () => {
      const query = Array.from(
        { length: 30 },
        (_, index) => `wheres[${index}][column]=id&wheres[${index}][operator]=%21%3D&wheres[${index}][value]=${index}`,
      ).join('&')
      const wheres = parseQueryParams(query).wheres ?? []
      expect(wheres).to.have.length(30)
      expect(wheres.map((item) => item.value)).to.deep.equal(Array.from({ length: 30 }, (_, index) => String(index)))
    })

    it('keeps the order of the indices, not of arrival, and tolerates gaps', () => {
      const wheres =
        parseQueryParams('wheres[5][column]=b&wheres[5][value]=2&wheres[1][column]=a&wheres[1][value]=1').wheres ?? []
      expect(wheres.map((item) => item.column)).to.deep.equal(['a', 'b'])
    })
  })

  describe('lists of names', () => {
    it('reads columns, with, scopes, relationsExists and distinct as lists of trimmed names', () => {
      expect(
        parseQueryParams('columns[0]=id&columns[1]=%20name&with=posts&scopes[]=admins&distinct[0]=team_id'),
      ).to.deep.equal({
        columns: ['id', 'name'],
        with: ['posts'],
        scopes: ['admins'],
        distinct: ['team_id'],
      })
    })
  })

  describe('orders', () => {
    it('reads direction case-insensitively and defaults it to asc', () => {
      expect(
        parseQueryParams(
          'orders[0][column]=views&orders[0][direction]=DESC&orders[1][column]=id&orders[2][column]=title&orders[2][direction]=Asc',
        ).orders,
      ).to.deep.equal([
        { column: 'views', direction: 'desc' },
        { column: 'id', direction: 'asc' },
        { column: 'title', direction: 'asc' },
      ])
    })
  })

  describe('offset, limit, page', () => {
    it('reads whole numbers: offset ≥ 0, limit and page ≥ 1', () => {
      expect(parseQueryParams('offset=0&limit=1&page=1')).to.deep.equal({ offset: 0, limit: 1, page: 1 })
      expect(parseQueryParams('offset=40&limit=20&page=3')).to.deep.equal({ offset: 40, limit: 20, page: 3 })
    })
  })
})
