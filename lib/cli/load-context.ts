import { importModule } from './import-module.ts'
import { oneLine, UsageError } from './cli-io.ts'

/** Where `explain` takes the guards' `context` from. */
export interface ContextSource {
  /** `--context '<json>'`. */
  json?: string
  /**
   * `--context-module <file>`: its default export, else `context`, else its only export; a function is called (and
   * awaited).
   */
  module?: string
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The `context` the map's guards receive while `explain` builds the SQL: the module's, the JSON's, or
 * both merged (the JSON's keys win). `undefined` when neither is given.
 *
 * @throws {UsageError} for JSON that does not parse, a module that does not load or exports no context.
 * @example
 * await loadContext({ json: '{"tenantId":1}' }, process.cwd())  // { tenantId: 1 }
 */
export async function loadContext(source: ContextSource, cwd: string): Promise<unknown> {
  const fromModule = source.module === undefined ? undefined : await moduleContext(source.module, cwd)
  const fromJson = source.json === undefined ? undefined : jsonContext(source.json)
  if (source.module === undefined) return fromJson
  if (source.json === undefined) return fromModule
  if (!isPlainObject(fromModule) || !isPlainObject(fromJson))
    throw new UsageError('--context and --context-module can only be combined when both give an object.')
  return { ...fromModule, ...fromJson }
}

function jsonContext(json: string): unknown {
  try {
    return JSON.parse(json) as unknown
  } catch (error) {
    throw new UsageError(`--context is not JSON (${oneLine(error)}); write it as --context '{"tenantId":1}'.`)
  }
}

async function moduleContext(file: string, cwd: string): Promise<unknown> {
  const module = await importModule(file, cwd, 'the context module')
  const names = Object.keys(module)
  const found =
    'default' in module
      ? module['default']
      : 'context' in module
        ? module['context']
        : names.length === 1
          ? module[names[0] ?? '']
          : undefined
  if (found === undefined)
    throw new UsageError(`The module ${file} exports no context: export it as default or as 'context'.`)
  if (typeof found !== 'function') return found
  try {
    return (await (found as () => unknown)()) as unknown
  } catch (error) {
    throw new UsageError(`The context function of ${file} threw: ${oneLine(error)}`)
  }
}
