import type { Knex } from 'knex'

/**
 * One typed value held for a builder, beside it rather than on it (a `WeakMap`, so no cast reads it and knex never
 * sees it). Part of the knex boundary (see `lib/knex/`). The rule, the same for every value a slot holds:
 *
 * - the value belongs to the one builder object it was set on, and goes with it wherever that object goes:
 *   `.transacting(trx)`, `.connection(…)`, `.timeout(…)` and the other chained calls return the same object, so
 *   awaiting, `.stream()` and `.toSQL()` on it all see the value;
 * - a copy never has it: neither `.clone()` nor `statementCopy()` copies it; code that makes a copy and needs part
 *   of the value on the copy sets it there itself (see `spec/knex/builder-slot.spec.ts`).
 */
export class BuilderSlot<Value extends object> {
  private readonly values = new WeakMap<Knex.QueryBuilder, Value>()

  /** The value set for `builder` itself, if any (never one set for a builder it was copied from). */
  of(builder: Knex.QueryBuilder): Value | undefined {
    return this.values.get(builder)
  }

  /** Sets the value of `builder`, frozen, in place of any it had. */
  set(builder: Knex.QueryBuilder, value: Value): void {
    this.values.set(builder, Object.freeze(value))
  }
}
