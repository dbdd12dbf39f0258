import type { PlannedAggregate, WithNode } from '../validate/query-plan.ts'
import { parentKeyColumns, relatedKeyColumns } from '../validate/key-pairs.ts'

/**
 * One line per relation of a `with` tree, indented by level, saying which query would load it:
 * `posts (hasMany): from posts where posts.user_id in (users.id of the rows)`, and under it the aggregates its
 * rows get (`posts.commentsCount`): `comments_count (count of comments): one query on posts for the keys of the
 * loaded rows`.
 *
 * @example
 * describeEagerLoading(plan.with) // ['posts (hasMany): from posts where posts.user_id in (users.id of the rows)']
 */
export function describeEagerLoading(nodes: readonly WithNode[], depth = 0): string[] {
  const lines: string[] = []
  const indent = '  '.repeat(depth)
  for (const node of nodes) {
    const relation = node.relation
    if (relation.kind === 'morphTo') {
      const targets = relation.targets.map(
        (target) =>
          `${target.table} where ${target.table}.${target.key} in (${relation.parentTable}.${relation.idColumn} of ` +
          `rows with ${relation.typeColumn} = '${target.typeValue}')`,
      )
      lines.push(`${indent}${relation.name} (morphTo): one query per type found: ${targets.join('; ')}`)
    } else {
      // A composite key is matched as a tuple: (payment.rental_id, payment.rental_date) in (…).
      const tuple = (table: string, columns: readonly string[]): string =>
        columns.length === 1
          ? `${table}.${columns[0]}`
          : `(${columns.map((column) => `${table}.${column}`).join(', ')})`
      const parentKeys = `${tuple(relation.parentTable, parentKeyColumns(relation))} of the rows`
      const match =
        relation.pivot === undefined
          ? `${tuple(relation.table, relatedKeyColumns(relation))} in (${parentKeys})`
          : `join ${relation.pivot.table} on ${relation.pivot.table}.${relation.pivot.relatedColumn} = ` +
            `${relation.table}.${relation.relatedKey} where ${relation.pivot.table}.${relation.pivot.parentColumn} in (${parentKeys})`
      const morph =
        relation.morph === undefined
          ? ''
          : ` and ${relation.table}.${relation.morph.column} = '${relation.morph.value}'`
      lines.push(
        `${indent}${relation.name} (${relation.type}): from ${relation.table} ` +
          `${relation.pivot === undefined ? 'where ' : ''}${match}${morph}`,
      )
    }
    for (const children of Object.values(node.children)) lines.push(...describeEagerLoading(children, depth + 1))
    for (const [table, aggregates] of Object.entries(node.aggregates ?? {})) {
      for (const aggregate of aggregates)
        lines.push(`${indent}  ${describeAggregate(aggregate)}: one query on ${table} for the keys of the loaded rows`)
    }
  }
  return lines
}

/** `comments_count (count of comments)`, `posts_views_sum (sum of posts.views, scope published)`. */
export function describeAggregate(aggregate: PlannedAggregate): string {
  const { relation } = aggregate
  const over = aggregate.column === undefined ? relation.table : `${relation.table}.${aggregate.column}`
  return `${aggregate.key} (${aggregate.kind} of ${over}${aggregate.scope === undefined ? '' : `, scope ${aggregate.scope}`})`
}
