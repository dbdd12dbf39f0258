import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import type { Condition } from '../validate/condition.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import { aliasFor, fromClause, type AliasScope } from './alias-scope.ts'
import { applyTest, type Bool } from './apply-test.ts'

/** What conditions are compiled against. */
export interface ConditionContext {
  dialect: Dialect
  like: 'insensitive' | 'sensitive'
}

/**
 * Adds a validated condition to the builder, chained with `bool`. `ref` is the name the current
 * table is known by; `scope` holds every name visible there, so a subquery on the same table gets an
 * alias. Relation conditions become correlated `EXISTS (SELECT 1 …)` subqueries, never joins.
 */
export function applyCondition(
  builder: Knex.QueryBuilder,
  bool: Bool,
  condition: Condition,
  ref: string,
  scope: AliasScope,
  context: ConditionContext,
): void {
  switch (condition.kind) {
    case 'test':
      applyTest(builder, bool, `${ref}.${condition.column}`, condition.test, context.dialect, context.like)
      return
    case 'exists': {
      const { relation, inner } = condition
      builder[bool === 'or' ? 'orWhereExists' : 'whereExists'](function (this: Knex.QueryBuilder) {
        existsSubquery(this, relation, inner, ref, scope, context)
      })
      return
    }
    case 'morphExists': {
      const { relation, branches } = condition
      const branch = (into: Knex.QueryBuilder, { target, inner }: (typeof branches)[number]): void => {
        into.where(`${ref}.${relation.typeColumn}`, target.typeValue).whereExists(function (this: Knex.QueryBuilder) {
          const alias = aliasFor(target.table, scope)
          this.select(this.client.raw('1'))
            .from(fromClause(target.table, alias))
            .whereRaw('?? = ??', [`${alias}.${target.key}`, `${ref}.${relation.idColumn}`])
          if (inner !== null) applyCondition(this, 'and', inner, alias, new Set([...scope, alias]), context)
        })
      }
      const group = function (this: Knex.QueryBuilder): void {
        const [only, ...others] = branches
        if (only !== undefined && others.length === 0) return branch(this, only)
        for (const each of branches) this.orWhere((inner: Knex.QueryBuilder) => branch(inner, each))
      }
      bool === 'or' ? builder.orWhere(group) : builder.where(group)
    }
  }
}

function existsSubquery(
  builder: Knex.QueryBuilder,
  relation: DirectRelation,
  inner: Condition | null,
  ref: string,
  scope: AliasScope,
  context: ConditionContext,
): void {
  builder.select(builder.client.raw('1'))
  const { pivot } = relation
  if (pivot !== undefined && inner === null) {
    const pivotAlias = aliasFor(pivot.table, scope)
    builder.from(fromClause(pivot.table, pivotAlias)).whereRaw('?? = ??', [`${pivotAlias}.${pivot.parentColumn}`, `${ref}.${relation.parentKey}`])
    return
  }
  const alias = aliasFor(relation.table, scope)
  const visible = new Set([...scope, alias])
  builder.from(fromClause(relation.table, alias))
  if (pivot === undefined) {
    builder.whereRaw('?? = ??', [`${alias}.${relation.relatedKey}`, `${ref}.${relation.parentKey}`])
  } else {
    const pivotAlias = aliasFor(pivot.table, visible)
    visible.add(pivotAlias)
    builder
      .innerJoin(fromClause(pivot.table, pivotAlias), `${pivotAlias}.${pivot.relatedColumn}`, `${alias}.${relation.relatedKey}`)
      .whereRaw('?? = ??', [`${pivotAlias}.${pivot.parentColumn}`, `${ref}.${relation.parentKey}`])
  }
  if (relation.morph !== undefined) builder.where(`${alias}.${relation.morph.column}`, relation.morph.value)
  if (inner !== null) applyCondition(builder, 'and', inner, alias, visible, context)
}
