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

/**
 * How `dialect` tests that a correlated subquery has a row when nothing but existence is asked (see
 * `Dialect.bareRelation`): `exists (select …)`, or `(select … limit 1) is not null`.
 */
export function existenceTest(dialect: Dialect): ExistenceTest {
  return TESTS[dialect.bareRelation]
}
