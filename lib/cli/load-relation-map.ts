import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RelationMap } from '../relation-map.ts'
import { UsageError } from './usage-error.ts'

interface TsxApi {
  tsImport(specifier: string, parentURL: string): Promise<Record<string, unknown>>
}

/**
 * Imports the module at `file` (relative to `cwd`) and returns its relation map: the default export,
 * else the export named `relationMap`, else its only export. A `.js`/`.mjs` file always loads; a `.ts`
 * file loads where Node can import it (type stripping, or a loader such as tsx already registered),
 * else through `tsx` when the project has it installed.
 *
 * @throws {UsageError} when the file cannot be loaded or exports no relation map.
 * @example
 * const map = await loadRelationMap('./relation-map.js', process.cwd())
 */
export async function loadRelationMap(file: string, cwd: string): Promise<RelationMap> {
  const path = resolve(cwd, file)
  const url = pathToFileURL(path).href
  let module: Record<string, unknown>
  try {
    module = (await import(url)) as Record<string, unknown>
  } catch (error) {
    if (!/\.[cm]?ts$/.test(path) || !isUnknownExtension(error)) throw new UsageError(`Cannot load the relation map ${file}: ${(error as Error).message}`)
    module = await importWithTsx(path, file, cwd)
  }
  return relationMapOf(module, file)
}

function isUnknownExtension(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION'
}

async function importWithTsx(path: string, file: string, cwd: string): Promise<Record<string, unknown>> {
  let tsx: TsxApi
  try {
    tsx = (await import(pathToFileURL(tsxEsmApi(cwd)).href)) as TsxApi
  } catch {
    throw new UsageError(
      `Cannot load the relation map ${file}: this Node.js cannot import TypeScript. Install tsx (npm install --save-dev tsx), ` +
        'run with a Node.js that strips types (22.18 or later), or point --map at a .js/.mjs file.',
    )
  }
  try {
    return await tsx.tsImport(pathToFileURL(path).href, import.meta.url)
  } catch (error) {
    throw new UsageError(`Cannot load the relation map ${file}: ${(error as Error).message}`)
  }
}

/** The path of tsx's ESM API (`tsx/esm/api`, its `import` condition) as installed for `cwd`. */
function tsxEsmApi(cwd: string): string {
  const manifest = createRequire(resolve(cwd, 'package.json')).resolve('tsx/package.json')
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import?: { default?: string } } | undefined> }
  const entry = exports['./esm/api']?.import?.default
  if (entry === undefined) throw new Error('tsx has no ESM API')
  return resolve(dirname(manifest), entry)
}

function relationMapOf(module: Record<string, unknown>, file: string): RelationMap {
  const exports = Object.entries(module).filter(([, value]) => typeof value === 'object' && value !== null)
  const found = module['default'] ?? module['relationMap'] ?? (exports.length === 1 ? exports[0]?.[1] : undefined)
  if (typeof found !== 'object' || found === null) {
    throw new UsageError(`The module ${file} exports no relation map: export it as default or as 'relationMap'.`)
  }
  return found as RelationMap
}
