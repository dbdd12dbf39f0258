import { expect } from 'chai'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { APPLY_DEFAULTS, PARSE_DEFAULTS, withDefaults, type ParseOptions } from '../../lib/options.ts'
import { parseQueryParams } from '../../lib/index.ts'

describe('parse: options', () => {
  it('keeps the default of an option passed as undefined (plain JavaScript callers)', () => {
    const options = { maxWheres: undefined } as unknown as ParseOptions
    const wheres = Array.from({ length: 101 }, (_, i) => `wheres[${i}][column]=id&wheres[${i}][value]=${i}`).join('&')
    expect(() => parseQueryParams(wheres, options)).to.throw(QueryParamsError, 'more than 100 conditions')
  })

  it('merges only the options that are set, and returns the defaults themselves when none is', () => {
    expect(withDefaults(PARSE_DEFAULTS, {})).to.equal(PARSE_DEFAULTS)
    expect(withDefaults(APPLY_DEFAULTS, { maxLimit: undefined } as unknown as typeof APPLY_DEFAULTS)).to.equal(
      APPLY_DEFAULTS,
    )
    expect(withDefaults(APPLY_DEFAULTS, { maxLimit: 50 })).to.deep.equal({ ...APPLY_DEFAULTS, maxLimit: 50 })
  })
})
