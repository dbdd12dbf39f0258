import type { RelationMap } from '../relation-map.ts'
import { importModule } from './import-module.ts'
import { UsageError } from './usage-error.ts'

/**
 * Imports the module at `file` (relative to `cwd`) and returns its relation map: the default export,
 * else the export named `relationMap`, else its only export. See {@link importModule} for what loads.
 *
 * @throws {UsageError} when the file cannot be loaded or exports no relation map.
 * @example
 * const map = await loadRelationMap('./relation-map.js', process.cwd())
 */
export async function loadRelationMap(file: string, cwd: string): Promise<RelationMap> {
  return relationMapOf(await importModule(file, cwd, 'the relation map'), file)
}

function relationMapOf(module: Record<string, unknown>, file: string): RelationMap {
  const exports = Object.entries(module).filter(([, value]) => typeof value === 'object' && value !== null)
  const found = module['default'] ?? module['relationMap'] ?? (exports.length === 1 ? exports[0]?.[1] : undefined)
  if (typeof found !== 'object' || found === null) {
    throw new UsageError(`The module ${file} exports no relation map: export it as default or as 'relationMap'.`)
  }
  return found as RelationMap
}
