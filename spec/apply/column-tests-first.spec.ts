import { expect } from 'chai'
import fc from 'fast-check'
import { columnTestsFirst } from '../../lib/plan/column-tests-first.ts'
import type { QueryPlan } from '../../lib/validate/query-plan.ts'

type Where = QueryPlan['wheres'][number]

/** A where of one kind, told apart by `id` (its conditions are never read here). */
const whereOf = (boolean: 'and' | 'or', test: boolean, id: number): Where =>
  ({ boolean, condition: test ? { kind: 'test', id } : { kind: 'exists', id } }) as unknown as Where

/** The order the function documents, written out the long way: per and-run, its tests, then the rest. */
function expected(wheres: readonly Where[]): Array<{ boolean: string; id: number }> {
  const runs: Where[][] = []
  for (const [index, where] of wheres.entries()) {
    if (index === 0 || where.boolean === 'or') runs.push([where])
    else runs[runs.length - 1]?.push(where)
  }
  const out: Array<{ boolean: string; id: number }> = []
  for (const run of runs) {
    const ordered = [
      ...run.filter((w) => w.condition.kind === 'test'),
      ...run.filter((w) => w.condition.kind !== 'test'),
    ]
    for (const [index, where] of ordered.entries())
      out.push({
        boolean: index === 0 && out.length > 0 ? 'or' : 'and',
        id: (where.condition as unknown as { id: number }).id,
      })
  }
  return out
}

describe('columnTestsFirst', () => {
  it('orders each and-run tests first, and returns wheres already in that order as they are (no copy)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('and', 'or'), fc.boolean()), { maxLength: 12 }), (shape) => {
        const wheres = shape.map(([boolean, test], id) => whereOf(boolean as 'and' | 'or', test, id))
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
})
