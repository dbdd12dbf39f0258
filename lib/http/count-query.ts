import type { Knex } from 'knex'
import { internalsOf, type KnexStatement } from '../knex/knex-internals.ts'
import { dropOrderJoins } from '../apply/order-joins.ts'

const flag = (statement: KnexStatement, name: 'distinct' | 'distinctOn'): boolean =>
  Object.getOwnPropertyDescriptor(statement, name)?.value === true

const changesRowCount = (statement: KnexStatement): boolean =>
  (statement.grouping === 'columns' && (flag(statement, 'distinct') || flag(statement, 'distinctOn'))) ||
  statement.grouping === 'group' ||
  statement.grouping === 'having' ||
  statement.grouping === 'union'

/**
 * A query counting the rows `builder` would return without its order, limit and offset (nor the joins
 * `applyQueryParams` added only for orders through relations), as `total`.
 * `builder.clone()` is a plain knex builder, so no eager loading runs. A plain query becomes
 * `select count(*) as total from … where …`; one whose select list decides the rows (`distinct`,
 * `group by`, `having`, `union`) is counted as a subquery: `select count(*) as total from (…) as paginated`.
 *
 * @example
 * const [{ total }] = await countQuery(applyQueryParams(db('posts'), params, relationMap))
 */
export function countQuery(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const base = dropOrderJoins(builder.clone().clear('order').clear('limit').clear('offset'))
  if (internalsOf(base)._statements.some(changesRowCount)) {
    return builder.client.queryBuilder().count({ total: '*' }).from(base.as('paginated'))
  }
  return base.clearSelect().count({ total: '*' })
}
