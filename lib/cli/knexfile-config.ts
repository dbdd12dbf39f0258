import type { Knex } from 'knex'
import { importModule } from './import-module.ts'
import { UsageError } from './cli-io.ts'

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/**
 * The knex configuration in the knexfile `file` (relative to `cwd`): its default export (or the module
 * itself) when that holds a `client`, else its environment `env` (default `NODE_ENV`, else `development`),
 * as knex's own CLI picks it.
 *
 * @throws {UsageError} when the file cannot be loaded or has no configuration for `env`.
 * @example
 * const config = await knexfileConfig('./knexfile.ts', process.cwd(), 'production')
 */
export async function knexfileConfig(file: string, cwd: string, env?: string): Promise<Knex.Config> {
  const module = await importModule(file, cwd, 'the knexfile')
  const exported = module['default'] ?? module
  if (!isRecord(exported)) throw new UsageError(`The knexfile ${file} exports no configuration object.`)
  if ('client' in exported) return exported as Knex.Config
  const name = env ?? process.env['NODE_ENV'] ?? 'development'
  const config = exported[name]
  if (!isRecord(config) || !('client' in config)) {
    const environments = Object.keys(exported).filter((key) => isRecord(exported[key]))
    throw new UsageError(
      `The knexfile ${file} has no environment '${name}' (environments: ${environments.join(', ') || 'none'}); pick ` +
        `one with --env.`,
    )
  }
  return config as Knex.Config
}
