import type { Knex } from 'knex'

/**
 * A builder reading `table`, in `schema` when the table is named without one: knex then also qualifies the tables
 * this builder joins.
 */
export function queryOn(client: Knex.Client, table: string, schema: string | undefined): Knex.QueryBuilder {
  const query = client.queryBuilder()
  if (schema !== undefined && !table.includes('.')) query.withSchema(schema)
  return query.from(table)
}
