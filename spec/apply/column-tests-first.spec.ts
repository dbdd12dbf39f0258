import { expect } from 'chai'
import fc from 'fast-check'
import { columnTestsFirst, depthOf } from '../../lib/plan/column-tests-first.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { APPLY_DEFAULTS } from '../../lib/options.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import type { QueryPlan } from '../../lib/validate/query-plan.ts'
import { validateQueryParams } from '../../lib/validate/validate-query-params.ts'

type Where = QueryPlan['wheres'][number]

/**
 * A where told apart by `id`: a column test (`depth` 0), or a relation filter holding `depth` − 1 nested ones (only
 * their kinds and nesting are read here).
 */
const whereOf = (boolean: 'and' | 'or', depth: number, id: number): Where => {
  let condition: object = { kind: 'test', id }
  if (depth > 0) {
    condition = { kind: 'exists', inner: null, id }
    for (let level = 1; level < depth; level++) condition = { kind: 'exists', inner: condition, id }
  }
  return { boolean, condition } as unknown as Where
}

/** The order the function documents, written out the long way: per and-run, each depth in turn, shallowest first. */
function expected(wheres: readonly Where[]): Array<{ boolean: string; id: number }> {
  const runs: Where[][] = []
  for (const [index, where] of wheres.entries()) {
    if (index === 0 || where.boolean === 'or') runs.push([where])
    else runs[runs.length - 1]?.push(where)
  }
  const out: Array<{ boolean: string; id: number }> = []
  for (const run of runs) {
    const ordered = [0, 1, 2, 3].flatMap((depth) => run.filter((w) => depthOf(w.condition) === depth))
    for (const [index, where] of ordered.entries())
      out.push({
        boolean: index === 0 && out.length > 0 ? 'or' : 'and',
        id: (where.condition as unknown as { id: number }).id,
      })
  }
  return out
}

describe('columnTestsFirst', () => {
  it('orders each and-run tests first, then relation filters shallowest first; wheres already so are kept (no copy)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('and', 'or'), fc.nat(3)), { maxLength: 12 }), (shape) => {
        const wheres = shape.map(([boolean, depth], id) => whereOf(boolean as 'and' | 'or', depth, id))
        const written = columnTestsFirst(wheres)
        const got = written.map((w) => ({ boolean: w.boolean, id: (w.condition as unknown as { id: number }).id }))
        const want = expected(wheres)
        expect(got).to.deep.equal(want)
        const unchanged = want.every((w, i) => w.id === i && w.boolean === wheres[i]?.boolean)
        expect(written === wheres).to.equal(unchanged)
      }),
      { seed: 29, numRuns: 2000 },
    )
  })

  it('tells the depth of a validated condition: title 0, comments.body and commentsCount 1, author.posts.title 2', () => {
    const columns = ['title', 'comments.body', 'comments_count', 'author.posts.title']
    const request = columns
      .map((column, i) => `wheres[${i}][column]=${column}&wheres[${i}][operator]=%3E&wheres[${i}][value]=1`)
      .join('&')
    const plan = validateQueryParams(parseQueryParams(request), 'posts', relationMap, APPLY_DEFAULTS)
    expect(plan.wheres.map(({ condition }) => depthOf(condition))).to.deep.equal([0, 1, 1, 2])
  })
})
