import { parseArgs } from 'node:util'
import { CLIENT_NAMES, type ClientName } from '../dialect/knex-config-for.ts'
import { UsageError } from './usage-error.ts'

/** What `knex-query-params explain` was asked to do. */
export interface ExplainArguments {
  requests: string[]
  map: string
  table?: string
  client?: ClientName
  db?: string
  strict: boolean
}

/** The parsed command line: help, or an `explain` command. */
export type CliArguments = { command: 'help' } | ({ command: 'explain' } & ExplainArguments)

const isClientName = (name: string): name is ClientName => (CLIENT_NAMES as readonly string[]).includes(name)

/**
 * Reads the command line (without `node` and the script).
 *
 * @throws {UsageError} for an unknown command or option, or a missing request or `--map`.
 * @example
 * cliArguments(['explain', '/users?limit=2', '--map', './map.js']) // { command: 'explain', requests: ['/users?limit=2'], map: './map.js', strict: false }
 */
export function cliArguments(argv: readonly string[]): CliArguments {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        map: { type: 'string' },
        table: { type: 'string' },
        client: { type: 'string' },
        db: { type: 'string' },
        strict: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values, positionals } = parsed
  const [command, ...requests] = positionals
  if (values.help || command === undefined || command === 'help') return { command: 'help' }
  if (command !== 'explain') throw new UsageError(`Unknown command '${command}'; the command is 'explain'.`)
  if (requests.length === 0) throw new UsageError("Missing the request to explain, e.g. '/users?limit=2'.")
  if (values.map === undefined) throw new UsageError('Missing --map <file>: the module that exports the relation map.')
  const result: CliArguments = { command: 'explain', requests, map: values.map, strict: values.strict }
  if (values.table !== undefined) result.table = values.table
  if (values.db !== undefined) result.db = values.db
  if (values.client !== undefined) {
    if (!isClientName(values.client)) throw new UsageError(`Unknown --client '${values.client}'; expected one of ${CLIENT_NAMES.join(', ')}.`)
    result.client = values.client
  }
  return result
}
