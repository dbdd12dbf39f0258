import type { Knex } from 'knex'
import { hopKey, type ConditionStyle } from '../plan/condition-style.ts'
import { innerPath } from '../plan/inner-path.ts'
import type { RelationMap } from '../relation-map.ts'
import type { SqlWriter } from '../sql/sql-writer.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import type { JoinedAggregateWhere } from './joined-aggregate-where.ts'
import type { OrderJoins } from './order-joins.ts'

/**
 * The client's conditions (`listing`: the raw the query holds, and its SQL) with each relation filter through a
 * to-one hop the page has joined (the hop paths `vias`: its orders', and its filters' where the dialect joins them,
 * `Dialect.joinFilterHops`) testing the joined row instead of a subquery: comments ordered by
 * `post.views` with `post.views > ?` and `post.author.score < ?` test `posts.views > ?` and `posts.user_id in
 * (select users.id …)` on the order's joined post. `write` writes the conditions in the style it is given. Only inner
 * joins serve (a `required` belongsTo to a table without a guard: the related row exists, is visible and is the
 * one row the filter's subquery would find), and with an order cutoff only its hops, which its bound walks too.
 * MariaDB flattened each filter into a semi-join over every post and user (comments by `post.views`, page 4: 5.1 s
 * against 34 ms; figure 16). Only a page reads it (`pageRewriteFor`): a count and a probe drop the order joins.
 * `undefined` when no filter goes through such a hop.
 */
export function joinedHopsWhere(
  client: Knex.Client,
  listing: { list: Knex.Raw; sql: string },
  context: { ref: string; map: RelationMap; style: ConditionStyle; vias: ReadonlyArray<readonly DirectRelation[]> },
  joins: OrderJoins,
  write: (out: SqlWriter, style: ConditionStyle, visible: readonly string[]) => void,
  writer: SqlWriter,
): JoinedAggregateWhere | undefined {
  const { ref, map, style, vias } = context
  const joined = joinedHops(ref, map, vias, joins)
  if (joined === undefined) return undefined
  const out = writer.fresh()
  write(out, Object.freeze({ ...style, joined }), [...joined.values()])
  return out.sql === listing.sql ? undefined : { list: listing.list, joined: out.toRaw(client) }
}

/**
 * The inner-joined to-one hops of `vias` the page has joined (`joins`), each the alias it is joined as, keyed by
 * `hopKey` (see `ConditionStyle.joined`); `undefined` for none.
 */
export function joinedHops(
  ref: string,
  map: RelationMap,
  vias: ReadonlyArray<readonly DirectRelation[]>,
  joins: OrderJoins,
): ReadonlyMap<string, string> | undefined {
  const joined = new Map<string, string>()
  for (const via of vias) {
    if (via.length === 0 || !innerPath(map, via)) continue
    let previous = ref
    for (let index = 0; index < via.length; index++) {
      const relation = via[index]
      const alias = joins.joinedAs(via.slice(0, index + 1))
      if (relation === undefined || alias === undefined) break
      joined.set(hopKey(previous, relation.name), alias)
      previous = alias
    }
  }
  return joined.size === 0 ? undefined : joined
}
