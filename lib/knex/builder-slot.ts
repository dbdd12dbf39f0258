import type { Knex } from 'knex'

/**
 * One typed value held for a builder (or a raw), under a symbol of the slot's own that knex never reads. Part of the
 * knex boundary (see `lib/knex/`). The rule, the same for every value a slot holds:
 *
 * - the value belongs to the one builder object it was set on, and goes with it wherever that object goes:
 *   `.transacting(trx)`, `.connection(…)`, `.timeout(…)` and the other chained calls return the same object, so
 *   awaiting, `.stream()` and `.toSQL()` on it all see the value;
 * - a copy never has it: neither `.clone()` nor `statementCopy()` copies it (knex's `clone()` copies its own fields
 *   by name); code that makes a copy and needs part of the value on the copy sets it there itself (see
 *   `spec/knex/builder-slot.spec.ts`).
 *
 * A property rather than a `WeakMap` entry: every request sets a value on a new builder, and a `WeakMap` keyed by
 * objects that die young makes each young-generation collection trace its entries (ephemerons) and keep their
 * values alive a collection longer. Figure 1 measured the garbage collector's time on the typical request ten
 * times lower (see BENCHMARKS.md, figure 1).
 */
export class BuilderSlot<Value extends object, Holder extends Knex.QueryBuilder | Knex.Raw = Knex.QueryBuilder> {
  private readonly key: symbol = Symbol('knex-query-params.slot')

  /** The value set for `builder` itself, if any (never one set for a builder it was copied from). */
  of(builder: Holder): Value | undefined {
    return (builder as unknown as Record<symbol, Value | undefined>)[this.key]
  }

  /** Sets the value of `builder`, frozen, in place of any it had. */
  set(builder: Holder, value: Value): void {
    ;(builder as unknown as Record<symbol, Value | undefined>)[this.key] = Object.freeze(value)
  }
}
