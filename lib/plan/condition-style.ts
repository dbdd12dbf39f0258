import type { DialectPlanner } from '../dialect/dialect-roles.ts'
import type { FrequencyGuard } from '../dialect/dialect.ts'
import type { Condition } from '../validate/query-plan.ts'
import type { KeyFirstChooser, RelationFilterChooser, RelationFilterForm } from './relation-filter-form.ts'

/**
 * How a writer writes conditions: every choice it would otherwise ask about while writing, as one immutable value
 * the read plan gives it (see `planRead`) and the writer passes down, changed only by making a new value. The
 * listing form of a guarded page, its walking form and its fenced listing form are three styles of the same
 * conditions.
 */
export interface ConditionStyle {
  /**
   * The form of a relation filter whose related rows must meet `inner`: whether its relation is to-many (`many`),
   * and whether it is written inside the subquery of a to-many relation filter (`underMany`).
   */
  readonly relationForm: RelationFilterChooser
  /** How bare existence (a relation without a condition) is tested (`Dialect.bareRelation`). */
  readonly bare: DialectPlanner['bareRelation']
  /** Whether a relation filter is written key first (`write-key-first.ts`); `undefined` writes none so. */
  readonly keyFirst: KeyFirstChooser | undefined
  /**
   * The walking form of a guarded page (`Dialect.frequencyGuard`'s `walkProbe`): every relation filter is a
   * correlated test, `exists (…)` or the scalar probe `(select 1 … limit 1) is not null`; `undefined` elsewhere.
   */
  readonly walk: FrequencyGuard['walkProbe'] | undefined
  /**
   * The fenced listing form of a guarded page (`Dialect.frequencyGuard`'s `fencedList`): the base table's alias,
   * whose relation filters through a pivot written key first become `key in (select … offset 0)`, a subquery
   * PostgreSQL plans on its own and reads first; `undefined` elsewhere.
   */
  readonly fencedBase: string | undefined
  /**
   * Whether a relation filter written key first tells what its key's related rows are (`select 1 from post_tag
   * where tag_id = (select …)`), for the frequency guard's probe; `undefined` tells none. Filters directly on the
   * `base` table are not told: an index on the referencing column serves them. The page is ordered by `orderedBy`
   * (a base column), which tells whether a filter through a pivot is served in order by the pivot's index.
   */
  readonly keyLists: { readonly base: string; readonly orderedBy: string | undefined } | undefined
  /**
   * Set while writing the subquery of a relation filter through a to-many relation (`tags` of a post): a relation
   * filter written there is tested once per related row of every base row, unless it is an `in` list built once.
   */
  readonly underMany: boolean
  /**
   * The to-one hops the page has joined for its orders, each an inner join (see `joinedHopsWhere`): the alias a
   * relation of a table is joined as, keyed by {@link hopKey}. A relation filter through such a hop tests the
   * joined row; `undefined` elsewhere.
   */
  readonly joined: ReadonlyMap<string, string> | undefined
  /**
   * The relation filters (by identity) whose key lists are told for a probe of their length (see `probedListFilter`
   * and `listedWalkFilters`), written as lists; `undefined` (or absent) tells none.
   */
  readonly toldLists?: readonly Condition[]
}

/** The key of {@link ConditionStyle.joined}: the relation `relation` of the table known as `ref`. */
export function hopKey(ref: string, relation: string): string {
  return `${ref}\u0000${relation}`
}

const PLAIN = new WeakMap<object, ConditionStyle>()

/**
 * The style of every condition but the client's own (search, orders, aggregates, keyset positions): no key first,
 * no frequency guard; a relation filter with a condition in the dialect's form, `in` where it chooses by
 * selectivity (which only the client's conditions do). One value per dialect.
 */
export function plainStyle(planner: Pick<DialectPlanner, 'filteredRelation' | 'bareRelation'>): ConditionStyle {
  let style = PLAIN.get(planner)
  if (style === undefined) {
    const form = planner.filteredRelation === 'by-selectivity' ? 'in' : planner.filteredRelation
    style = Object.freeze({
      relationForm: form === 'in' ? listed : correlated,
      bare: planner.bareRelation,
      keyFirst: undefined,
      walk: undefined,
      fencedBase: undefined,
      keyLists: undefined,
      underMany: false,
      joined: undefined,
    })
    PLAIN.set(planner, style)
  }
  return style
}

/** `style` writing every relation filter with a condition as `key in (select …)`. */
export function listedStyle(style: ConditionStyle): ConditionStyle {
  return style.relationForm === listed ? style : Object.freeze({ ...style, relationForm: listed })
}

/** `style` for what is written inside a relation filter through a relation that is to-many (`many`) or not. */
export function styleUnder(style: ConditionStyle, many: boolean): ConditionStyle {
  return style.underMany === many ? style : Object.freeze({ ...style, underMany: many })
}

/** Every relation filter with a condition as `key in (select …)`. */
export function listed(): RelationFilterForm {
  return 'in'
}

/** Every relation filter as a correlated `exists`. */
export function correlated(): RelationFilterForm {
  return 'exists'
}
