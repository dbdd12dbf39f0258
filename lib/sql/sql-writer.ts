import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import type { Fragment } from './fragment.ts'
import type { Identifiers } from './identifiers.ts'
import type { RowGuards } from '../guard/row-guards.ts'

/**
 * SQL text written piece by piece, with its bindings in placeholder order. Names are quoted through
 * `names`, so the text is the SQL knex itself would compile for the same clauses, and a client's value
 * only ever becomes a binding. The text reaches knex as one raw fragment, which compiles far faster
 * than the equivalent chain of builder calls. It holds no choice of form: the writers of conditions are given
 * those as a `ConditionStyle` and return what they learned.
 */
export class SqlWriter {
  sql = ''
  readonly bindings: Knex.Value[] = []

  readonly names: Identifiers
  readonly dialect: Dialect
  readonly like: 'insensitive' | 'sensitive'
  /** The row guards every table this fragment reaches must meet; `undefined` when the map has none. */
  readonly guards: RowGuards | undefined

  constructor(names: Identifiers, dialect: Dialect, like: 'insensitive' | 'sensitive', guards?: RowGuards) {
    this.names = names
    this.dialect = dialect
    this.like = like
    this.guards = guards
  }

  /** Appends SQL text: only text the library wrote itself, never a client's value. */
  text(sql: string): this {
    this.sql += sql
    return this
  }

  /**
   * Inserts SQL text without placeholders at `at` (an index into `sql`, before any binding written after it): only
   * text the library wrote itself.
   */
  insert(at: number, sql: string): this {
    this.sql = `${this.sql.slice(0, at)}${sql}${this.sql.slice(at)}`
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
    return new SqlWriter(this.names, this.dialect, this.like, this.guards)
  }

  /** Appends another fragment's text and bindings. */
  append(other: Fragment): this {
    this.sql += other.sql
    for (const binding of other.bindings) this.bindings.push(binding)
    return this
  }

  /** What was written so far, as a fragment no later write changes. */
  fragment(): Fragment {
    return Object.freeze({ sql: this.sql, bindings: Object.freeze([...this.bindings]) })
  }

  /** The fragment as a knex raw of `client`. */
  toRaw(client: Knex.Client): Knex.Raw {
    return client.raw(this.sql, this.bindings)
  }
}
