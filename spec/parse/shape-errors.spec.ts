import { expect } from 'chai'
import qs from 'qs'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { parseQueryParams } from '../../lib/index.ts'
import { OPERATORS } from '../../lib/query-params.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'

describe('parseQueryParams: shape errors (status 400, code, param as the client sent it)', () => {
  describe('invalid_syntax', () => {
    it('a list parameter sent as a scalar where objects are needed', () => {
      expectQueryParamsError(() => parseQueryParams('wheres=abc'), { code: 'invalid_syntax', param: 'wheres' })
      expectQueryParamsError(() => parseQueryParams('orders[0]=views'), { code: 'invalid_syntax', param: 'orders[0]' })
    })

    it('a non-numeric list index', () => {
      expectQueryParamsError(() => parseQueryParams('wheres[a][column]=x'), {
        code: 'invalid_syntax',
        param: 'wheres[a]',
      })
      expectQueryParamsError(() => parseQueryParams('with[x]=posts'), { code: 'invalid_syntax', param: 'with[x]' })
    })

    it('a key that is both a value and an object', () => {
      expectQueryParamsError(() => parseQueryParams('with=posts&with[0]=team'), {
        code: 'invalid_syntax',
        param: 'with[0]',
      })
    })

    it('a bracket that is never closed', () => {
      expectQueryParamsError(() => parseQueryParams('wheres[0[column]=x'), {
        code: 'invalid_syntax',
        param: 'wheres[0[column]',
      })
    })
  })

  describe('invalid_value', () => {
    it('a where without column', () => {
      expectQueryParamsError(() => parseQueryParams('wheres[4][operator]=in'), {
        code: 'invalid_value',
        param: 'wheres[4][column]',
      })
    })

    it('a single-value operator without a value, or with a list', () => {
      expectQueryParamsError(() => parseQueryParams('wheres[0][column]=id&wheres[0][operator]=%3E'), {
        code: 'invalid_value',
        param: 'wheres[0][value]',
      })
      expectQueryParamsError(() => parseQueryParams('wheres[3][column]=id&wheres[3][value][0]=1'), {
        code: 'invalid_value',
        param: 'wheres[3][value]',
      })
    })

    it('a list member that is not a single value, named by the index the client sent', () => {
      expectQueryParamsError(
        () =>
          parseQueryParams(
            'wheres[3][column]=id&wheres[3][operator]=in&wheres[3][value][0]=1&wheres[3][value][1][x]=2',
          ),
        {
          code: 'invalid_value',
          param: 'wheres[3][value][1]',
        },
      )
    })

    it('between / notBetween without exactly two values', () => {
      expectQueryParamsError(
        () => parseQueryParams('wheres[2][column]=id&wheres[2][operator]=between&wheres[2][value][0]=1'),
        {
          code: 'invalid_value',
          param: 'wheres[2][value]',
        },
      )
      expectQueryParamsError(
        () =>
          parseQueryParams(
            'wheres[0][column]=id&wheres[0][operator]=notBetween&wheres[0][value][0]=1&wheres[0][value][1]=2&wheres[0][value][2]=3',
          ),
        { code: 'invalid_value', param: 'wheres[0][value]' },
      )
      expectQueryParamsError(() => parseQueryParams('wheres[0][column]=id&wheres[0][operator]=between'), {
        code: 'invalid_value',
        param: 'wheres[0][value]',
      })
    })

    it('an empty name in columns, with, scopes, relations_exists or distinct', () => {
      expectQueryParamsError(() => parseQueryParams('relations_exists[0]='), {
        code: 'invalid_value',
        param: 'relations_exists[0]',
      })
      expectQueryParamsError(() => parseQueryParams('columns[0]=id&columns[2]=%20'), {
        code: 'invalid_value',
        param: 'columns[2]',
      })
      expectQueryParamsError(() => parseQueryParams('with[0]'), { code: 'invalid_value', param: 'with[0]' })
    })

    it('an order without column', () => {
      expectQueryParamsError(() => parseQueryParams('orders[1][direction]=asc'), {
        code: 'invalid_value',
        param: 'orders[1][column]',
      })
    })
  })

  describe('invalid_operator', () => {
    it('an operator outside the format, with the allowed operators', () => {
      expectQueryParamsError(
        () => parseQueryParams('wheres[3][column]=id&wheres[3][operator]=regexp&wheres[3][value]=x'),
        {
          code: 'invalid_operator',
          param: 'wheres[3][operator]',
          allowed: OPERATORS,
        },
      )
    })

    it('names the index the client sent in a qs object past arrayLimit', () => {
      const wheres: Record<string, object> = {}
      for (let index = 0; index < 22; index++) wheres[String(index)] = { column: 'id', operator: '=', value: '1' }
      wheres['21'] = { column: 'id', operator: 'similar to', value: '1' }
      expectQueryParamsError(() => parseQueryParams({ wheres }), {
        code: 'invalid_operator',
        param: 'wheres[21][operator]',
        allowed: OPERATORS,
      })
    })
  })

  describe('invalid_boolean', () => {
    it('a boolean other than and/or', () => {
      expectQueryParamsError(() => parseQueryParams('wheres[1][column]=id&wheres[1][value]=1&wheres[1][boolean]=xor'), {
        code: 'invalid_boolean',
        param: 'wheres[1][boolean]',
        allowed: ['and', 'or'],
      })
    })
  })

  describe('invalid_direction', () => {
    it('a direction other than asc/desc', () => {
      expectQueryParamsError(() => parseQueryParams('orders[2][column]=id&orders[2][direction]=up'), {
        code: 'invalid_direction',
        param: 'orders[2][direction]',
        allowed: ['asc', 'desc'],
      })
    })
  })

  describe('invalid_number', () => {
    const cases: Array<[string, string]> = [
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=-1', 'limit'],
      ['limit=1e3', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['limit[0]=1', 'limit'],
      ['page=0', 'page'],
      ['offset=-1', 'offset'],
      ['offset=', 'offset'],
      ['offset', 'offset'],
    ]
    for (const [query, param] of cases) {
      it(`${query} → ${param}`, () => {
        expectQueryParamsError(() => parseQueryParams(query), { code: 'invalid_number', param })
      })
    }

    it('a number too large to represent says so', () => {
      for (const [query, param] of [
        ['limit=100000000000000000000000', 'limit'],
        ['page=0009007199254740993', 'page'],
        ['offset=1000000000000000', 'offset'],
      ] as const) {
        const error = expectQueryParamsError(() => parseQueryParams(query), { code: 'invalid_number', param })
        expect(error.message, query).to.equal(
          `Parameter '${param}' is a number too large to represent; it must have at most 15 digits.`,
        )
      }
      const parsed = expectQueryParamsError(() => parseQueryParams({ offset: 2 ** 60 }), {
        code: 'invalid_number',
        param: 'offset',
      })
      expect(parsed.message).to.include('too large')
      expect(parseQueryParams('offset=999999999999999').offset).to.equal(999_999_999_999_999)
      expect(
        expectQueryParamsError(() => parseQueryParams('limit=0000000000000000'), {
          code: 'invalid_number',
          param: 'limit',
        }).message,
      ).to.equal("Parameter 'limit' must be a whole number of at least 1.")
    })
  })

  describe('limit_exceeded', () => {
    it('more wheres than options.maxWheres (default 100)', () => {
      const many = (count: number): string =>
        Array.from(
          { length: count },
          (_, index) => `wheres[${index}][column]=id&wheres[${index}][value]=${index}`,
        ).join('&')
      expect(parseQueryParams(many(100)).wheres).to.have.length(100)
      expectQueryParamsError(() => parseQueryParams(many(101)), { code: 'limit_exceeded', param: 'wheres' })
      expectQueryParamsError(() => parseQueryParams(many(3), { maxWheres: 2 }), {
        code: 'limit_exceeded',
        param: 'wheres',
      })
    })

    it('more in values than options.maxInValues', () => {
      expectQueryParamsError(
        () =>
          parseQueryParams('wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=2', {
            maxInValues: 1,
          }),
        {
          code: 'limit_exceeded',
          param: 'wheres[0][value]',
        },
      )
    })

    it('a value longer than options.maxValueLength', () => {
      expectQueryParamsError(
        () => parseQueryParams('wheres[0][column]=name&wheres[0][value]=abcd', { maxValueLength: 3 }),
        {
          code: 'limit_exceeded',
          param: 'wheres[0][value]',
        },
      )
    })

    it('a key nested deeper than options.depth (qs depth 5)', () => {
      expectQueryParamsError(() => parseQueryParams('wheres[0][value][0][a][b][c]=1'), {
        code: 'limit_exceeded',
        param: 'wheres[0][value][0][a][b][c]',
      })
    })

    it('more pairs than options.parameterLimit (default 2000)', () => {
      expectQueryParamsError(() => parseQueryParams('with[]=a&with[]=b&with[]=c', { parameterLimit: 2 }), {
        code: 'limit_exceeded',
        param: 'query',
      })
    })
  })

  it('serialises to a JSON body with message, code, param (and allowed)', () => {
    let thrown: unknown
    try {
      parseQueryParams(qs.stringify({ orders: [{ column: 'id', direction: 'sideways' }] }, { encodeValuesOnly: true }))
    } catch (error) {
      thrown = error
    }
    expect(thrown).to.be.instanceOf(QueryParamsError)
    expect((thrown as QueryParamsError).toJSON()).to.deep.equal({
      message: "Parameter 'orders[0][direction]' must be one of asc, desc.",
      code: 'invalid_direction',
      param: 'orders[0][direction]',
      allowed: ['asc', 'desc'],
    })
  })
})
