import type { RelationMap } from '../relation-map.ts'
import { ensureValidRelationMap } from '../map/validate-relation-map.ts'
import { importModule } from './import-module.ts'
import { oneLine, UsageError } from './cli-io.ts'

/**
 * Imports the module at `file` (relative to `cwd`) and returns its relation map: the default export,
 * else the export named `relationMap`, else its only export. See {@link importModule} for what loads.
 *
 * @throws {UsageError} when the file cannot be loaded, exports no relation map, or the map has a mistake.
 * @example
 * const map = await loadRelationMap('./relation-map.js', process.cwd())
 */
export async function loadRelationMap(file: string, cwd: string): Promise<RelationMap> {
  const map = relationMapOf(await importModule(file, cwd, 'the relation map'), file)
  try {
    ensureValidRelationMap(map)
  } catch (error) {
    throw new UsageError(
      `The relation map of ${file} is not valid: ${oneLine(error).replace(/^knex-query-params: /, '')}`,
    )
  }
  return map
}

function relationMapOf(module: Record<string, unknown>, file: string): RelationMap {
  const exports = Object.entries(module).filter(([, value]) => typeof value === 'object' && value !== null)
  const found = module['default'] ?? module['relationMap'] ?? (exports.length === 1 ? exports[0]?.[1] : undefined)
  if (typeof found !== 'object' || found === null) {
    throw new UsageError(`The module ${file} exports no relation map: export it as default or as 'relationMap'.`)
  }
  return found as RelationMap
}
