// Type tests, compiled by `npm run typecheck` and never run: every relation type has its entry in
// RELATION_KINDS (a record over the types that misses one does not compile), the to-many types are read from it,
// and a switch over what a kind loads or how it links fails to compile when a case is missing.
import {
  RELATION_KINDS,
  unhandled,
  type RelationKind,
  type RelationKinds,
  type RelationLink,
  type ToManyType,
} from '../../lib/map/relation-kinds.ts'
import type { RelationDefinition, RelationType } from '../../lib/relation-map.ts'
import type { Expect, Equal } from './expect-type.ts'

const { morphTo: _morphTo, ...withoutMorphTo } = RELATION_KINDS
// @ts-expect-error a relation type without its kind
export const incomplete: RelationKinds = withoutMorphTo
export const complete: RelationKinds = RELATION_KINDS

export type Types = Expect<Equal<keyof typeof RELATION_KINDS, RelationType>>
export type ToMany = Expect<Equal<ToManyType, 'hasMany' | 'belongsToMany' | 'morphMany'>>

export function describeLoads(loads: RelationKind<RelationDefinition>['loads']): string {
  switch (loads) {
    case 'all':
      return 'an array'
    case 'first':
      return 'the first row or null'
    default:
      // @ts-expect-error 'one' is not handled
      return unhandled(loads)
  }
}

export function linkTables(link: RelationLink): string[] {
  switch (link.kind) {
    case 'direct':
      return [link.table]
    default:
      // @ts-expect-error 'morphTo' is not handled
      return unhandled(link)
  }
}
