import type { RelationMap } from '../relation-map.ts'
import { validateRelationMap } from './validate-relation-map.ts'

const validated = new WeakSet<object>()

/**
 * Validates `map` the first time it is seen and remembers the object, so each later call costs one
 * `WeakSet` lookup. A map changed after its first use is not checked again. A map that fails is not
 * remembered, so every call with it throws.
 *
 * @throws {Error} the first mistake of the map (see {@link validateRelationMap}).
 */
export function ensureValidRelationMap(map: RelationMap): void {
  if (validated.has(map)) return
  validateRelationMap(map)
  validated.add(map)
}
