import type { RelationMapProblem } from '../lib/index.ts'

/** One problem as a line: level, map path, kind and what is wrong. */
export function describeProblem(problem: RelationMapProblem): string {
  return `${problem.level.padEnd(7)} ${problem.path} (${problem.kind}): ${problem.message}`
}

/**
 * Thrown by `checkDemoMap` when the relation map does not fit the database it would serve: its message lists
 * every problem, one a line, so the demo can print it and stop instead of failing on requests.
 */
export class MapMismatchError extends Error {
  /** Every problem found, errors and warnings. */
  readonly problems: readonly RelationMapProblem[]

  constructor(problems: readonly RelationMapProblem[]) {
    const errors = problems.filter((problem) => problem.level === 'error').length
    super(
      `Refusing to serve: the relation map does not fit this database (${errors} error${errors === 1 ? '' : 's'}, ` +
        `${problems.length - errors} warning${problems.length - errors === 1 ? '' : 's'}). Fix the map (demo/relation-map.ts, fixtures/relation-map.ts) ` +
        `or the schema (migrations/):\n${problems.map((problem) => `  ${describeProblem(problem)}`).join('\n')}`,
    )
    this.name = 'MapMismatchError'
    this.problems = problems
  }
}
