import type { Knex } from 'knex'
import type { Dialect, FrequencyGuard } from '../dialect/dialect.ts'
import type { Identifiers } from './identifiers.ts'
import type { KeyFirstChooser, RelationFilterChooser } from '../plan/relation-filter-form.ts'
import type { RowGuards } from '../guard/row-guards.ts'

/**
 * SQL text written piece by piece, with its bindings in placeholder order. Names are quoted through
 * `names`, so the text is the SQL knex itself would compile for the same clauses, and a client's value
 * only ever becomes a binding. The text reaches knex as one raw fragment, which compiles far faster
 * than the equivalent chain of builder calls.
 */
export class SqlWriter {
  sql = ''
  readonly bindings: Knex.Value[] = []

  readonly names: Identifiers
  readonly dialect: Dialect
  readonly like: 'insensitive' | 'sensitive'
  /** The row guards every table this fragment reaches must meet; `undefined` when the map has none. */
  readonly guards: RowGuards | undefined
  /**
   * Picks each relation filter's form where the dialect decides per condition (`filteredRelation: 'by-selectivity'`).
   */
  readonly chooseFilterForm: RelationFilterChooser | undefined
  /**
   * Set while writing the subquery of a relation filter through a to-many relation (`tags` of a post): a relation
   * filter written there is tested once per related row of every base row, unless it is an `in` list built once.
   */
  underMany: boolean
  /** Whether a relation filter is written key first (`write-key-first.ts`); `undefined` writes none so. */
  readonly keyFirst: KeyFirstChooser | undefined
  /**
   * Where a relation filter written key first records its key's related rows (`select 1 from post_tag where
   * tag_id = (select …)`), for the frequency guard (`Dialect.frequencyGuard`); `undefined` records none.
   * Filters directly on the `base` table are not recorded: an index on the referencing column serves them.
   * `served` is set when a filter through a pivot on the base table is written while the page is ordered by
   * the key the pivot references (`orderedBy`): the pivot's `(related, parent)` index then yields the page in
   * order for any frequency of the key.
   */
  keyLists: { base: string; orderedBy: string | undefined; lists: SqlWriter[]; served: boolean } | undefined
  /**
   * Set while writing the walking form of a guarded page (`Dialect.frequencyGuard`'s `walkProbe`): every
   * relation filter is a correlated test, `exists (…)` or the scalar probe `(select 1 … limit 1) is not null`.
   */
  walk: FrequencyGuard['walkProbe'] | undefined
  /**
   * Set while writing the fenced listing form of a guarded page (`Dialect.frequencyGuard`'s `fencedList`): the
   * base table's alias, whose relation filters through a pivot written key first become `key in (select … offset
   * 0)`, a subquery PostgreSQL plans on its own and reads first.
   */
  fencedBase: string | undefined
  /** Whether a fence of {@link fencedBase} was written into this writer. */
  fenceWritten: boolean

  constructor(
    names: Identifiers,
    dialect: Dialect,
    like: 'insensitive' | 'sensitive',
    guards?: RowGuards,
    chooseFilterForm?: RelationFilterChooser,
    keyFirst?: KeyFirstChooser,
  ) {
    this.names = names
    this.dialect = dialect
    this.like = like
    this.guards = guards
    this.chooseFilterForm = chooseFilterForm
    this.keyFirst = keyFirst
    this.keyLists = undefined
    this.underMany = false
    this.walk = undefined
    this.fencedBase = undefined
    this.fenceWritten = false
  }

  /** Appends SQL text: only text the library wrote itself, never a client's value. */
  text(sql: string): this {
    this.sql += sql
    return this
  }

  /** Appends a placeholder (`?`, or the given `placeholder` text holding one `?`) bound to `value`. */
  bind(value: Knex.Value, placeholder = '?'): this {
    this.sql += placeholder
    this.bindings.push(value)
    return this
  }

  /** A writer for a separate fragment, with the same quoting and dialect. */
  fresh(): SqlWriter {
    const fresh = new SqlWriter(this.names, this.dialect, this.like, this.guards, this.chooseFilterForm, this.keyFirst)
    fresh.walk = this.walk
    fresh.fencedBase = this.fencedBase
    return fresh
  }

  /** Appends another writer's text and bindings. */
  append(other: SqlWriter): this {
    this.sql += other.sql
    for (const binding of other.bindings) this.bindings.push(binding)
    return this
  }

  /** The fragment as a knex raw of `client`. */
  toRaw(client: Knex.Client): Knex.Raw {
    return client.raw(this.sql, this.bindings)
  }
}
