import { parseArgs } from 'node:util'
import type { DialectName } from '../dialect/dialect.ts'
import { DIALECT_NAMES } from '../dialect/dialect-of.ts'
import { CLIENT_NAMES, type ClientName } from './knex-config-for.ts'
import type { Naming } from '../introspect/options.ts'
import { UsageError } from './cli-io.ts'

/** What `knex-query-params explain` was asked to do. */
export interface ExplainArguments {
  requests: string[]
  map: string
  table?: string
  client?: ClientName
  db?: string
  strict: boolean
  /** `--context '<json>'`: the guards' context as JSON. */
  context?: string
  /** `--context-module <file>`: a module exporting the guards' context. */
  contextModule?: string
}

/** Where `knex-query-params introspect` reads the schema: a URL, or a knexfile's configuration. */
export type IntrospectSource =
  | { connection: string; client?: ClientName }
  | { knexfile: string; env?: string; dialect?: DialectName }

/** What `knex-query-params introspect` was asked to do. */
export interface IntrospectArguments {
  source: IntrospectSource
  /** The file to write; standard output when absent. */
  out?: string
  naming: Naming
  tables?: string[]
  exclude?: string[]
  /** `--exclude-columns deleted_at,*_secret`: column patterns left out of every table. */
  excludeColumns?: string[]
  /** `--no-inverse tenants`: tables that get no inverse relations. */
  noInverse?: string[]
  /** The PostgreSQL schema or MySQL database to read; default the connection's own. */
  schema?: string
  exposePivots: boolean
  /** `--sortable-indexed-only`: `sortable: false` on every column no index leads; absent when not given. */
  sortableIndexedOnly?: boolean
  /** `--views`: views read as resources too; absent when not given. */
  views?: boolean
}

/** What `knex-query-params openapi` was asked to do. */
export interface OpenApiArguments {
  /** The module exporting the relation map (and, optionally, `openApiOptions`). */
  map: string
  /** The file to write; standard output when absent. */
  out?: string
  /** `--tables users,posts`: only these tables, when the module exports no `openApiOptions`. */
  tables?: string[]
}

/** The parsed command line: help, an `explain`, an `introspect` or an `openapi` command. */
export type CliArguments =
  | { command: 'help' }
  | ({ command: 'explain' } & ExplainArguments)
  | ({ command: 'introspect' } & IntrospectArguments)
  | ({ command: 'openapi' } & OpenApiArguments)

const NAMINGS: readonly Naming[] = ['camel', 'snake', 'as-is']

const COMMAND_OPTIONS = {
  explain: ['map', 'table', 'client', 'db', 'strict', 'context', 'context-module'],
  introspect: [
    'client',
    'connection',
    'knexfile',
    'env',
    'dialect',
    'out',
    'naming',
    'tables',
    'exclude',
    'exclude-columns',
    'no-inverse',
    'schema',
    'expose-pivots',
    'sortable-indexed-only',
    'views',
  ],
  openapi: ['map', 'out', 'tables'],
} as const

const isClientName = (name: string): name is ClientName => (CLIENT_NAMES as readonly string[]).includes(name)
const isNaming = (name: string): name is Naming => (NAMINGS as readonly string[]).includes(name)

function clientName(value: string): ClientName {
  if (!isClientName(value))
    throw new UsageError(`Unknown --client '${value}'; expected one of ${CLIENT_NAMES.join(', ')}.`)
  return value
}

function dialectName(value: string): DialectName {
  const name = DIALECT_NAMES.find((each) => each === value)
  if (name === undefined)
    throw new UsageError(`Unknown --dialect '${value}'; expected one of ${DIALECT_NAMES.join(', ')}.`)
  return name
}

const tableList = (value: string): string[] =>
  value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')

/**
 * Reads the command line (without `node` and the script).
 *
 * @throws {UsageError} for an unknown command or option, an option of the other command, or a missing argument.
 * @example
 * cliArguments(['explain', '/users?limit=2', '--map', './map.js']) // { command: 'explain', requests: ['/users?limit=2'], map: './map.js', strict: false }
 * cliArguments(['introspect', '--connection', 'postgres://localhost/app']) // { command: 'introspect', source: { connection: 'postgres://localhost/app' }, naming: 'as-is', exposePivots: false }
 */
export function cliArguments(argv: readonly string[]): CliArguments {
  // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the parseArgs call assigned to it
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
        strict: { type: 'boolean' },
        context: { type: 'string' },
        'context-module': { type: 'string' },
        connection: { type: 'string' },
        knexfile: { type: 'string' },
        env: { type: 'string' },
        dialect: { type: 'string' },
        out: { type: 'string' },
        naming: { type: 'string' },
        tables: { type: 'string' },
        exclude: { type: 'string' },
        'exclude-columns': { type: 'string' },
        'no-inverse': { type: 'string' },
        schema: { type: 'string' },
        'expose-pivots': { type: 'boolean' },
        views: { type: 'boolean' },
        'sortable-indexed-only': { type: 'boolean' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  if (values.help || command === undefined || command === 'help') return { command: 'help' }
  if (command !== 'explain' && command !== 'introspect' && command !== 'openapi') {
    throw new UsageError(`Unknown command '${command}'; the commands are 'explain', 'introspect' and 'openapi'.`)
  }
  const allowed: readonly string[] = COMMAND_OPTIONS[command]
  const foreign = Object.keys(values).filter((option) => option !== 'help' && !allowed.includes(option))
  if (foreign.length > 0) throw new UsageError(`--${foreign[0] ?? ''} is not an option of '${command}'.`)
  if (command === 'introspect') {
    if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0] ?? ''}': introspect takes options only.`)
    return { command, ...introspectArguments(values) }
  }
  if (command === 'openapi') return openApiArguments(rest, values)
  if (rest.length === 0) throw new UsageError("Missing the request to explain, e.g. '/users?limit=2'.")
  if (values.map === undefined) throw new UsageError('Missing --map <file>: the module that exports the relation map.')
  const result: CliArguments = { command, requests: rest, map: values.map, strict: values.strict ?? false }
  if (values.table !== undefined) result.table = values.table
  if (values.db !== undefined) result.db = values.db
  if (values.client !== undefined) result.client = clientName(values.client)
  if (values.context !== undefined) result.context = values.context
  if (values['context-module'] !== undefined) result.contextModule = values['context-module']
  return result
}

interface OpenApiValues {
  map?: string | undefined
  out?: string | undefined
  tables?: string | undefined
}

function openApiArguments(rest: readonly string[], values: OpenApiValues): CliArguments {
  if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0] ?? ''}': openapi takes options only.`)
  if (values.map === undefined) throw new UsageError('Missing --map <file>: the module that exports the relation map.')
  const result: CliArguments = { command: 'openapi', map: values.map }
  if (values.out !== undefined) result.out = values.out
  if (values.tables !== undefined) result.tables = tableList(values.tables)
  return result
}

interface IntrospectValues {
  client?: string | undefined
  connection?: string | undefined
  knexfile?: string | undefined
  env?: string | undefined
  dialect?: string | undefined
  out?: string | undefined
  naming?: string | undefined
  tables?: string | undefined
  exclude?: string | undefined
  'exclude-columns'?: string | undefined
  'no-inverse'?: string | undefined
  schema?: string | undefined
  'expose-pivots'?: boolean | undefined
  'sortable-indexed-only'?: boolean | undefined
  views?: boolean | undefined
}

function introspectArguments(values: IntrospectValues): IntrospectArguments {
  let source: IntrospectSource
  if (values.connection !== undefined && values.knexfile !== undefined)
    throw new UsageError('Give --connection or --knexfile, not both.')
  if (values.connection !== undefined) {
    if (values.env !== undefined)
      throw new UsageError('--env picks an environment of --knexfile; with --connection there is none.')
    if (values.dialect !== undefined)
      throw new UsageError(
        "--dialect declares the database of a knexfile's client; with --connection the URL names it.",
      )
    source =
      values.client === undefined
        ? { connection: values.connection }
        : { connection: values.connection, client: clientName(values.client) }
  } else if (values.knexfile !== undefined) {
    if (values.client !== undefined)
      throw new UsageError('--client comes from the knexfile; give it only with --connection.')
    const knexfile: IntrospectSource = { knexfile: values.knexfile }
    if (values.env !== undefined) knexfile.env = values.env
    if (values.dialect !== undefined) knexfile.dialect = dialectName(values.dialect)
    source = knexfile
  } else {
    throw new UsageError(
      'Missing the database: --connection <url> (with --client), or --knexfile <file> [--env <name>].',
    )
  }
  const naming = values.naming ?? 'as-is'
  if (!isNaming(naming)) throw new UsageError(`Unknown --naming '${naming}'; expected one of ${NAMINGS.join(', ')}.`)
  const result: IntrospectArguments = { source, naming, exposePivots: values['expose-pivots'] ?? false }
  if (values.out !== undefined) result.out = values.out
  if (values.tables !== undefined) result.tables = tableList(values.tables)
  if (values.exclude !== undefined) result.exclude = tableList(values.exclude)
  if (values['exclude-columns'] !== undefined) result.excludeColumns = tableList(values['exclude-columns'])
  if (values['no-inverse'] !== undefined) result.noInverse = tableList(values['no-inverse'])
  if (values.schema !== undefined) result.schema = values.schema
  if (values['sortable-indexed-only'] === true) result.sortableIndexedOnly = true
  if (values.views === true) result.views = true
  return result
}
