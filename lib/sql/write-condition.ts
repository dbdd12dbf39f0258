import type { Condition } from '../validate/query-plan.ts'
import type { DirectRelation, MorphTarget } from '../validate/resolved-relation.ts'
import { aliasFor, type AliasScope } from './alias-scope.ts'
import { hopKey, styleUnder, type ConditionStyle } from '../plan/condition-style.ts'
import { learnedBoth, NOTHING_LEARNED, type Learned } from './learned.ts'
import { writeAggregateTest } from './write-aggregate-predicate.ts'
import type { SqlWriter } from './sql-writer.ts'
import { writeKeyFirst } from './write-key-first.ts'
import { writeTest } from './write-column-predicate.ts'
import { writeFulltextTest } from './write-fulltext-test.ts'
import { testedColumn } from './tested-column.ts'
import { closeExists, openExists } from './write-exists.ts'
import { keyEquality } from './key-equality.ts'
import { relatedKeyList } from './related-key-list.ts'

/**
 * Writes a validated condition. `ref` is the name the current table is known by; `scope` holds every
 * name visible there, so a subquery on the same table gets an alias. Relation conditions become
 * subqueries, never joins: a correlated `exists (select 1 …)`, or `key in (select …)` where the dialect
 * plans that better for related rows filtered by a condition (see `Dialect.filteredRelation`), or key first
 * where the related rows are one row by declaration (see `Dialect.keyFirstRelation`), each as `style` says.
 * Returns what writing learned (see {@link Learned}).
 */
export function writeCondition(
  out: SqlWriter,
  condition: Condition,
  ref: string,
  scope: AliasScope,
  style: ConditionStyle,
): Learned {
  switch (condition.kind) {
    case 'test':
      writeTest(out, testedColumn(out, condition, ref), condition.test)
      return NOTHING_LEARNED
    case 'aggregate':
      writeAggregateTest(out, condition.aggregate, condition.test, ref, scope)
      return NOTHING_LEARNED
    case 'fulltext':
      writeFulltextTest(out, condition.fulltext, condition.terms, ref, condition.fulltext.table)
      return NOTHING_LEARNED
    case 'exists': {
      const { relation, inner } = condition
      // A hop the page has inner-joined for its orders: its one related row is the joined row.
      const joined = inner === null ? undefined : style.joined?.get(hopKey(ref, relation.name))
      if (joined !== undefined && inner !== null)
        return writeCondition(out, inner, joined, new Set([...scope, joined]), styleUnder(style, false))
      // A composite key has no one column to list or to look up first: its filter is the correlated exists.
      const composite = relation.composite !== undefined
      const form = inner === null || composite ? 'exists' : style.relationForm(inner, relation.many, style.underMany)
      // What this filter's subquery holds is written under a to-many hop (see `ConditionStyle.underMany`).
      const under = styleUnder(style, relation.many)
      if (inner !== null && !composite && under.keyFirst?.(relation, inner, ref) === true)
        return writeKeyFirst(out, relation, inner, form, ref, scope, under)
      if (inner !== null && form === 'in') {
        const tell = style.toldLists?.includes(condition) === true
        const through = listedThrough(out, relation, inner, ref, scope, under, tell)
        if (through !== undefined) return through
        return writeInSubquery(out, relation, inner, ref, scope, under, listsDistinct(out, style, relation), tell)
      }
      openExists(out, under, inner === null, relation.many)
      const learned = writeExistsSubquery(out, relation, inner, ref, scope, under)
      closeExists(out, under, inner === null, relation.many)
      return learned
    }
    case 'morphExists': {
      const { relation, branches } = condition
      const typeColumn = out.names.column(ref, relation.typeColumn)
      const idColumn = out.names.column(ref, relation.idColumn)
      // A morphTo hop is to-one: what its branches hold is tested once per row of `ref`.
      const under = styleUnder(style, false)
      const branch = ({ target, inner }: { target: MorphTarget; inner: Condition | null }): Learned => {
        const alias = aliasFor(target.table, scope)
        const table = out.names.table(target.table, alias)
        const key = out.names.column(alias, target.key)
        out.text(`${typeColumn} = `).bind(target.typeValue)
        let learned = NOTHING_LEARNED
        if (inner !== null && under.relationForm(inner, false, under.underMany) === 'in') {
          out.text(` and ${idColumn} in (select ${key} from ${table} where `)
          learned = writeCondition(out, inner, alias, new Set([...scope, alias]), under)
          out.guards?.writeAnd(out, target.table, alias)
          out.text(')')
        } else {
          out.text(' and ')
          openExists(out, under, inner === null, false)
          out.text(`select 1 from ${table} where ${key} = ${idColumn}`)
          out.guards?.writeAnd(out, target.table, alias)
          if (inner !== null) {
            out.text(' and ')
            learned = writeCondition(out, inner, alias, new Set([...scope, alias]), under)
          }
          closeExists(out, under, inner === null, false)
        }
        return learned
      }
      out.text('(')
      let learned = NOTHING_LEARNED
      if (branches.length === 1 && branches[0] !== undefined) learned = branch(branches[0])
      else {
        branches.forEach((each, index) => {
          out.text(index === 0 ? '(' : ' or (')
          learned = learnedBoth(learned, branch(each))
          out.text(')')
        })
      }
      out.text(')')
      return learned
    }
  }
}

/**
 * A listed filter through a hop that only passes its key on, written without the hop: `posts.user_id in (select
 * posts_2.user_id from posts as posts_2 where …)` for `author.posts.views > ?`, instead of `posts.user_id in
 * (select users.id from users where users.id in (select posts_2.user_id …))`. The hop is a `required` belongsTo to
 * a table without a guard (every row has its related row, always visible), and what its rows must meet is one
 * listed filter of a relation keyed on the hop's related key, so the hop's list is that filter's list. MariaDB
 * planned the hop as a scan of every user joined to their posts and sorted (posts with `views > ?` and
 * `author.posts.views > ?`, page 3: 5.3 s, 0.84 s without the hop; figure 16). `undefined` (nothing written) for any
 * other filter.
 */
function listedThrough(
  out: SqlWriter,
  relation: DirectRelation,
  inner: Condition,
  ref: string,
  scope: AliasScope,
  style: ConditionStyle,
  tell: boolean,
): Learned | undefined {
  if (
    relation.type !== 'belongsTo' ||
    relation.required !== true ||
    relation.composite !== undefined ||
    out.guards?.has(relation.table) === true ||
    inner.kind !== 'exists' ||
    inner.inner === null ||
    inner.relation.composite !== undefined ||
    inner.relation.parentTable !== relation.table ||
    inner.relation.parentKey !== relation.relatedKey
  )
    return undefined
  const next = inner.relation
  const under = styleUnder(style, next.many)
  if (style.relationForm(inner.inner, next.many, style.underMany) !== 'in') return undefined
  if (under.keyFirst?.(next, inner.inner, aliasFor(relation.table, scope)) === true) return undefined
  return writeInSubquery(
    out,
    next,
    inner.inner,
    ref,
    scope,
    under,
    listsDistinct(out, style, next),
    tell,
    relation.parentKey,
  )
}

/**
 * Whether the key list of `relation`, written where `style` holds (the style above it, not the one under it), is a
 * `select distinct` derived table: a to-many list under a to-many hop, on a dialect whose `listUnderMany` says so.
 */
function listsDistinct(out: SqlWriter, style: ConditionStyle, relation: DirectRelation): boolean {
  return style.underMany && relation.many && out.dialect.listUnderMany === 'distinct'
}

function writeExistsSubquery(
  out: SqlWriter,
  relation: DirectRelation,
  inner: Condition | null,
  ref: string,
  scope: AliasScope,
  style: ConditionStyle,
): Learned {
  const { names } = out
  const parentKey = names.column(ref, relation.parentKey)
  // Through a pivot, the related row is joined even for bare existence: a pivot row whose related row is
  // gone does not count, as eager loading (an inner join) would not load it.
  const { pivot } = relation
  const alias = aliasFor(relation.table, scope)
  const visible = new Set([...scope, alias])
  out.text(`select 1 from ${names.table(relation.table, alias)}`)
  let pivotAlias = ''
  if (pivot === undefined) {
    out.text(` where ${keyEquality(names, relation, alias, ref)}`)
  } else {
    pivotAlias = aliasFor(pivot.table, visible)
    visible.add(pivotAlias)
    out.text(
      ` inner join ${names.table(pivot.table, pivotAlias)} on ${names.column(pivotAlias, pivot.relatedColumn)} = ` +
        `${names.column(alias, relation.relatedKey)}` +
        ` where ${names.column(pivotAlias, pivot.parentColumn)} = ${parentKey}`,
    )
  }
  if (relation.morph !== undefined)
    out.text(` and ${names.column(alias, relation.morph.column)} = `).bind(relation.morph.value)
  out.guards?.writeAnd(out, relation.table, alias)
  if (pivot !== undefined) out.guards?.writeAnd(out, pivot.table, pivotAlias)
  if (inner === null) return NOTHING_LEARNED
  out.text(' and ')
  return writeCondition(out, inner, alias, visible, style)
}

/**
 * `parent.key in (select related.key from related … where …)`: the related rows matching `inner`, as a
 * list the database can build once from an index, then probe (or turn into a semi-join). `distinct` lists the keys
 * as a `select distinct` derived table (see `Dialect.listUnderMany`). `listedBy`: the column of `ref` the list is
 * compared with, when it is not `relation.parentKey` (see {@link listedThrough}). `tell`: the list's rows are learned
 * as a key list (see `relatedKeyList`).
 */
function writeInSubquery(
  out: SqlWriter,
  relation: DirectRelation,
  inner: Condition,
  ref: string,
  scope: AliasScope,
  style: ConditionStyle,
  distinct: boolean,
  tell: boolean,
  listedBy = relation.parentKey,
): Learned {
  const { names } = out
  const { pivot } = relation
  const alias = aliasFor(relation.table, scope)
  const visible = new Set([...scope, alias])
  const table = names.table(relation.table, alias)
  const listed = names.column(DISTINCT_LIST, DISTINCT_KEY)
  out.text(`${names.column(ref, listedBy)} in (`)
  if (distinct) out.text(`select ${listed} from (select distinct `)
  else out.text('select ')
  const key = (column: string): string => (distinct ? names.aliased(column, DISTINCT_KEY) : column)
  // Told, the list's rows (`from … where …`) are written once, for the list and for its probe.
  const rows = tell ? out.fresh() : out
  let pivotAlias = ''
  let parentColumn = names.column(alias, relation.relatedKey)
  if (pivot === undefined) {
    out.text(`${key(parentColumn)} `)
    rows.text(`from ${table} where `)
  } else {
    pivotAlias = aliasFor(pivot.table, visible)
    visible.add(pivotAlias)
    parentColumn = names.column(pivotAlias, pivot.parentColumn)
    out.text(`${key(parentColumn)} `)
    rows.text(
      `from ${names.table(pivot.table, pivotAlias)} inner join ${table} on ` +
        `${names.column(alias, relation.relatedKey)} = ${names.column(pivotAlias, pivot.relatedColumn)} where `,
    )
  }
  if (relation.morph !== undefined)
    rows
      .text(`${names.column(alias, relation.morph.column)} = `)
      .bind(relation.morph.value)
      .text(' and ')
  const learned = writeCondition(rows, inner, alias, visible, style)
  rows.guards?.writeAnd(rows, relation.table, alias)
  if (pivot !== undefined) rows.guards?.writeAnd(rows, pivot.table, pivotAlias)
  if (rows !== out) out.append(rows.fragment())
  out.text(distinct ? `) as ${names.name(DISTINCT_LIST)})` : ')')
  if (rows === out) return learned
  const list = relatedKeyList(rows, relation, parentColumn, visible)
  return learnedBoth(learned, Object.freeze({ keyLists: Object.freeze([list]), served: false, fenced: false }))
}

/** The derived table of a distinct key list (`listUnderMany`) and its one column; alone in its `select`. */
const DISTINCT_LIST = 'kqp_list'
const DISTINCT_KEY = 'k'
