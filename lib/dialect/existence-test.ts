import type { DialectPlanner } from './dialect-planner.ts'

/** The text around a correlated subquery that tests whether it has a row. */
export interface ExistenceTest {
  readonly open: string
  readonly close: string
}

const TESTS: Readonly<Record<DialectPlanner['bareRelation'], ExistenceTest>> = {
  exists: { open: 'exists (', close: ')' },
  scalar: { open: '(', close: ' limit 1) is not null' },
}

/** The scalar probe `(select … limit 1) is not null`, which every dialect runs (the walking form of a guarded page). */
export const SCALAR_EXISTENCE: ExistenceTest = TESTS.scalar

/** `exists (select …)`. */
export const EXISTS: ExistenceTest = TESTS.exists
