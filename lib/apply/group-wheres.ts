import type { Knex } from 'knex'
import { internalsOf, type KnexStatement } from '../knex/knex-internals.ts'

/**
 * Moves the where statements recorded from position `from` on into one parenthesised group, so an
 * `or` among them cannot escape: `a or b` becomes `(a or b)`. Does nothing when they hold no `or`.
 */
export function groupWheres(builder: Knex.QueryBuilder, from = 0): void {
  const internals = internalsOf(builder)
  if (!hasLaterOr(internals._statements, from)) return
  const kept: KnexStatement[] = []
  const moved: KnexStatement[] = []
  internals._statements.forEach((statement, index) =>
    (statement.grouping === 'where' && index >= from ? moved : kept).push(statement),
  )
  const group: KnexStatement = {
    grouping: 'where',
    type: 'whereWrapped',
    bool: 'and',
    not: false,
    value(this: Knex.QueryBuilder) {
      internalsOf(this)._statements.push(...moved)
    },
  }
  internals._statements = [...kept, group]
}

/** The number of statements recorded so far; pass it to {@link groupWheres} after adding more. */
export function statementCount(builder: Knex.QueryBuilder): number {
  return internalsOf(builder)._statements.length
}

/** Whether a where statement after the first one from `from` on is chained with `or`. */
function hasLaterOr(statements: readonly KnexStatement[], from: number): boolean {
  let first = true
  for (let index = from; index < statements.length; index++) {
    const statement = statements[index] as KnexStatement
    if (statement.grouping !== 'where') continue
    if (!first && statement.bool === 'or') return true
    first = false
  }
  return false
}
