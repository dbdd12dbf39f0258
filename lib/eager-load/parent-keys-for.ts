import type { WithNode } from '../validate/with-tree.ts'

/**
 * The columns the parent rows must carry for `nodes` to be eager-loaded onto them: the parent key of
 * each direct relation (e.g. `team_id` for belongsTo team, `id` for hasMany posts), the type and id
 * columns of each morphTo (e.g. `imageable_type`, `imageable_id`). Distinct, in order of appearance.
 */
export function parentKeysFor(nodes: readonly WithNode[]): string[] {
  const keys = new Set<string>()
  for (const { relation } of nodes) {
    if (relation.kind === 'direct') keys.add(relation.parentKey)
    else {
      keys.add(relation.typeColumn)
      keys.add(relation.idColumn)
    }
  }
  return [...keys]
}
