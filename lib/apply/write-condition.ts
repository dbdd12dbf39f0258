import type { Condition } from '../validate/condition.ts'
import type { DirectRelation, MorphTarget } from '../validate/resolved-relation.ts'
import { aliasFor, type AliasScope } from './alias-scope.ts'
import type { SqlWriter } from './sql-writer.ts'
import { writeTest } from './write-test.ts'

/**
 * Writes a validated condition. `ref` is the name the current table is known by; `scope` holds every
 * name visible there, so a subquery on the same table gets an alias. Relation conditions become
 * correlated `exists (select 1 …)` subqueries, never joins.
 */
export function writeCondition(out: SqlWriter, condition: Condition, ref: string, scope: AliasScope): void {
  switch (condition.kind) {
    case 'test':
      writeTest(out, out.names.column(ref, condition.column), condition.test)
      return
    case 'exists':
      out.text('exists (')
      writeExistsSubquery(out, condition.relation, condition.inner, ref, scope)
      out.text(')')
      return
    case 'morphExists': {
      const { relation, branches } = condition
      const typeColumn = out.names.column(ref, relation.typeColumn)
      const idColumn = out.names.column(ref, relation.idColumn)
      const branch = ({ target, inner }: { target: MorphTarget; inner: Condition | null }): void => {
        const alias = aliasFor(target.table, scope)
        out.text(`${typeColumn} = `).bind(target.typeValue)
        out.text(` and exists (select 1 from ${out.names.table(target.table, alias)} where ${out.names.column(alias, target.key)} = ${idColumn}`)
        out.guards?.writeAnd(out, target.table, alias)
        if (inner !== null) {
          out.text(' and ')
          writeCondition(out, inner, alias, new Set([...scope, alias]))
        }
        out.text(')')
      }
      out.text('(')
      if (branches.length === 1 && branches[0] !== undefined) branch(branches[0])
      else {
        branches.forEach((each, index) => {
          out.text(index === 0 ? '(' : ' or (')
          branch(each)
          out.text(')')
        })
      }
      out.text(')')
    }
  }
}

function writeExistsSubquery(out: SqlWriter, relation: DirectRelation, inner: Condition | null, ref: string, scope: AliasScope): void {
  const { names } = out
  const parentKey = names.column(ref, relation.parentKey)
  const { pivot } = relation
  if (pivot !== undefined && inner === null && out.guards?.has(relation.table) !== true) {
    const pivotAlias = aliasFor(pivot.table, scope)
    out.text(`select 1 from ${names.table(pivot.table, pivotAlias)} where ${names.column(pivotAlias, pivot.parentColumn)} = ${parentKey}`)
    out.guards?.writeAnd(out, pivot.table, pivotAlias)
    return
  }
  const alias = aliasFor(relation.table, scope)
  const visible = new Set([...scope, alias])
  out.text(`select 1 from ${names.table(relation.table, alias)}`)
  let pivotAlias = ''
  if (pivot === undefined) {
    out.text(` where ${names.column(alias, relation.relatedKey)} = ${parentKey}`)
  } else {
    pivotAlias = aliasFor(pivot.table, visible)
    visible.add(pivotAlias)
    out.text(
      ` inner join ${names.table(pivot.table, pivotAlias)} on ${names.column(pivotAlias, pivot.relatedColumn)} = ${names.column(alias, relation.relatedKey)}` +
        ` where ${names.column(pivotAlias, pivot.parentColumn)} = ${parentKey}`,
    )
  }
  if (relation.morph !== undefined) out.text(` and ${names.column(alias, relation.morph.column)} = `).bind(relation.morph.value)
  out.guards?.writeAnd(out, relation.table, alias)
  if (pivot !== undefined) out.guards?.writeAnd(out, pivot.table, pivotAlias)
  if (inner !== null) {
    out.text(' and ')
    writeCondition(out, inner, alias, visible)
  }
}
