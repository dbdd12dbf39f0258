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
      const value = bindValue(dialect, test.value)
      or ? builder.orWhere(column, test.operator, value) : builder.where(column, test.operator, value)
      return
    }
    case 'like':
      if (like === 'sensitive') {
        const bindings = [column, dialect.likeSensitive.pattern(test.pattern)]
        or ? builder.orWhereRaw(dialect.likeSensitive.sql, bindings) : builder.whereRaw(dialect.likeSensitive.sql, bindings)
      } else {
        or ? builder.orWhere(column, dialect.likeInsensitive, test.pattern) : builder.where(column, dialect.likeInsensitive, test.pattern)
      }
      return
    case 'between': {
      const range: [string | number | boolean, string | number | boolean] = [bindValue(dialect, test.low), bindValue(dialect, test.high)]
      if (test.negate) or ? builder.orWhereNotBetween(column, range) : builder.whereNotBetween(column, range)
      else or ? builder.orWhereBetween(column, range) : builder.whereBetween(column, range)
      return
    }
    case 'in': {
      const values = test.values.map((value) => bindValue(dialect, value))
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
