import { openApiDocument } from '../openapi/openapi-document.ts'
import type { OpenApiOptions } from '../openapi/options.ts'
import type { RelationMap } from '../relation-map.ts'
import type { OpenApiArguments } from './cli-arguments.ts'
import { oneLine, UsageError, type CliIo } from './cli-io.ts'
import { importModule } from './import-module.ts'
import { writeOutput } from './write-output.ts'
import { loadRelationMap } from './load-relation-map.ts'

/**
 * The document's options: the map module's `openApiOptions` export when it has one (the resources as the
 * application routes them), else a list route and an item route at `/<table>` for each table (of `--tables`).
 */
async function optionsOf(args: OpenApiArguments, map: RelationMap, cwd: string): Promise<OpenApiOptions> {
  const exported = (await importModule(args.map, cwd, 'the relation map'))['openApiOptions']
  if (exported !== undefined) {
    if (
      typeof exported !== 'object' ||
      exported === null ||
      !Array.isArray((exported as { resources?: unknown }).resources)
    ) {
      throw new UsageError(`The module ${args.map} exports openApiOptions without a resources list.`)
    }
    return exported as OpenApiOptions
  }
  const tables = args.tables ?? Object.keys(map)
  const unknown = tables.find((table) => !Object.hasOwn(map, table))
  if (unknown !== undefined)
    throw new UsageError(`--tables names '${unknown}', which is not a table of the relation map.`)
  return { resources: tables.map((table) => ({ path: `/${table}`, table, item: true })) }
}

/**
 * `knex-query-params openapi`: writes the OpenAPI 3.1 document of a relation map as JSON to `args.out`
 * (relative to `cwd`; a summary line on `io.out`) or, without `out`, to `io.out`.
 *
 * @throws {UsageError} for a module that cannot be loaded, a map or options with a mistake, or a file that cannot
 * be written.
 * @example
 * await openApiCommand({ map: './relation-map.js', out: 'openapi.json' }, io, process.cwd())
 */
export async function openApiCommand(args: OpenApiArguments, io: CliIo, cwd: string): Promise<void> {
  const map = await loadRelationMap(args.map, cwd)
  const options = await optionsOf(args, map, cwd)
  let text: string
  try {
    text = `${JSON.stringify(openApiDocument(map, options), null, 2)}\n`
  } catch (error) {
    throw new UsageError(oneLine(error).replace(/^knex-query-params: /, ''))
  }
  writeOutput(text, args.out, io, cwd, () => `Wrote ${args.out}: OpenAPI 3.1, ${options.resources.length} resources.`)
}
