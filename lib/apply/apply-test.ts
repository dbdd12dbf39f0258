import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import type { Test } from '../validate/condition.ts'
import { bindValue } from './bind-value.ts'

/** How a condition joins the one before it. */
export type Bool = 'and' | 'or'

/** Adds one column test to the builder, chained with `bool`. All values are bound. */
export function applyTest(builder: Knex.QueryBuilder, bool: Bool, column: string, test: Test, dialect: Dialect, like: 'insensitive' | 'sensitive'): void {
  const or = bool === 'or'
  switch (test.op) {
    case 'null':
      if (test.negate) or ? builder.orWhereNotNull(column) : builder.whereNotNull(column)
      else or ? builder.orWhereNull(column) : builder.whereNull(column)
      return
    case 'compare': {
      const value = bindValue(builder.client, dialect, test.value)
      or ? builder.orWhere(column, test.operator, value) : builder.where(column, test.operator, value)
      return
    }
    case 'like': {
      const { sql, operator, pattern } = like === 'sensitive' ? dialect.likeSensitive : dialect.likeInsensitive
      if (operator !== undefined) {
        or ? builder.orWhere(column, operator, pattern(test.pattern)) : builder.where(column, operator, pattern(test.pattern))
        return
      }
      const bindings = [column, pattern(test.pattern)]
      or ? builder.orWhereRaw(sql, bindings) : builder.whereRaw(sql, bindings)
      return
    }
    case 'between': {
      const range: [Knex.Value, Knex.Value] = [bindValue(builder.client, dialect, test.low), bindValue(builder.client, dialect, test.high)]
      if (test.negate) or ? builder.orWhereNotBetween(column, range) : builder.whereNotBetween(column, range)
      else or ? builder.orWhereBetween(column, range) : builder.whereBetween(column, range)
      return
    }
    case 'in': {
      const values = test.values.map((value) => bindValue(builder.client, dialect, value))
      if (!test.withNull) {
        if (test.negate) or ? builder.orWhereNotIn(column, values) : builder.whereNotIn(column, values)
        else or ? builder.orWhereIn(column, values) : builder.whereIn(column, values)
        return
      }
      const group = function (this: Knex.QueryBuilder): void {
        if (test.negate) {
          this.whereNotNull(column)
          if (values.length > 0) this.whereNotIn(column, values)
        } else {
          this.whereNull(column)
          if (values.length > 0) this.orWhereIn(column, values)
        }
      }
      or ? builder.orWhere(group) : builder.where(group)
    }
  }
}
