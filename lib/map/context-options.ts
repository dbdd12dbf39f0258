import type { RelationMap } from '../relation-map.ts'

/**
 * The `Context` of a relation map: the type its guards read as `context` (`RelationMap<{ tenantId: number }>`,
 * or a `defineRelationMap` literal whose guards declare `GuardInfo<{ tenantId: number }>`), else `unknown`.
 *
 * @example
 * type C = ContextOf<typeof relationMap>  // { tenantId: number }
 */
export type ContextOf<Map> = Map extends RelationMap<infer Context> ? Context : unknown

/**
 * Whether guards reading a `Context` need one passed: `true` unless `Context` is `unknown` (no guard
 * declares one) or admits `undefined` (`{ tenantId: number } | undefined`: the guards check for it).
 */
export type NeedsContext<Context> = unknown extends Context ? false : undefined extends Context ? false : true

/**
 * The options argument of a call whose map's guards read `context`: required, with `context`, when
 * {@link NeedsContext} says so; optional otherwise.
 *
 * @example
 * function run<Context>(map: RelationMap<Context>, ...[options]: ContextOptions<ApplyOptions<Context>, Context>): void
 * run(tenantMap)                                 // compile error: options (and context) are required
 * run(tenantMap, { context: { tenantId: 1 } })   // ok
 */
export type ContextOptions<Options extends { context?: unknown }, Context> =
  NeedsContext<Context> extends true ? [options: Options & { context: Context }] : [options?: Options]
