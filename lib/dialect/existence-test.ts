import type { Dialect } from './dialect.ts'

/** The text around a correlated subquery that tests whether it has a row. */
export interface ExistenceTest {
  readonly open: string
  readonly close: string
}

const TESTS: Readonly<Record<Dialect['bareRelation'], ExistenceTest>> = {
  exists: { open: 'exists (', close: ')' },
  scalar: { open: '(', close: ' limit 1) is not null' },
}

/** The scalar probe `(select … limit 1) is not null`, which every dialect runs (the walking form of a guarded page). */
export const SCALAR_EXISTENCE: ExistenceTest = TESTS.scalar

/** `exists (select …)`. */
export const EXISTS: ExistenceTest = TESTS.exists

/**
 * How `dialect` tests that a correlated subquery has a row when nothing but existence is asked (see
 * `Dialect.bareRelation`): `exists (select …)`, or `(select … limit 1) is not null`.
 */
export function existenceTest(dialect: Dialect): ExistenceTest {
  return TESTS[dialect.bareRelation]
}
