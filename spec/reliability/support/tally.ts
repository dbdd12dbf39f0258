/** What a property run did, for the report: cases generated, requests executed per database, outcomes. */
export interface Tally {
  cases: number
  /** Requests executed, over all databases. */
  executions: number
  /** Executions that returned at least one row (an empty result is not counted). */
  withRows: number
  /** Executions (or parses) rejected with a `QueryParamsError`. */
  rejected: number
  /** Cross-database comparisons made (equivalence only). */
  comparisons: number
}

/** A tally at zero. */
export function newTally(): Tally {
  return { cases: 0, executions: 0, withRows: 0, rejected: 0, comparisons: 0 }
}

/** One line for the test output, e.g. `400 cases, 800 executions (612 with rows, 188 rejected)`. */
export function describeTally(tally: Tally): string {
  const compared = tally.comparisons > 0 ? `, ${tally.comparisons} cross-database comparisons` : ''
  return `${tally.cases} cases, ${tally.executions} executions (${tally.withRows} with rows, ${tally.rejected} rejected)${compared}`
}
