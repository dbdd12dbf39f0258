import { GuardError } from '../guard/guard-error.ts'
import { QueryParamsError } from '../errors/query-params-error.ts'
import { cliArguments, type CliArguments } from './cli-arguments.ts'
import { explainRequest } from './explain-request.ts'
import { HELP_TEXT } from './help-text.ts'
import { introspectCommand } from './introspect-database.ts'
import { loadContext } from './load-context.ts'
import { loadRelationMap } from './load-relation-map.ts'
import { openApiCommand } from './openapi-command.ts'
import { oneLine, UsageError, type CliIo } from './cli-io.ts'

/**
 * Exit codes of the CLI: 0 done, 1 a request was rejected (a `QueryParamsError`), 2 a usage error (the
 * arguments, the map, context or knexfile module, a guard that needs a context, the database or its
 * driver, the output file), 3 anything else (an unexpected error: a bug to report).
 */
export const EXIT = { ok: 0, rejected: 1, usage: 2, failed: 3 } as const

const PREFIX = 'knex-query-params: '

/**
 * Runs `knex-query-params <argv>` and returns its exit code (see {@link EXIT}). Every failure is one line
 * on `io.err`, starting `knex-query-params: `, never a stack trace.
 *
 * @example
 * process.exitCode = await runCli(['explain', '/users?limit=2', '--map', './map.js'], { out: console.log, err: console.error })
 * process.exitCode = await runCli(['introspect', '--connection', 'app.db', '--out', 'relation-map.ts'], { out: console.log, err: console.error })
 */
export async function runCli(argv: readonly string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  let args: CliArguments
  try {
    args = cliArguments(argv)
  } catch (error) {
    io.err(`${PREFIX}${oneLine(error)} Run 'knex-query-params --help' for usage.`)
    return EXIT.usage
  }
  try {
    return await run(args, io, cwd)
  } catch (error) {
    io.err(`${PREFIX}${oneLine(error).replace(/^knex-query-params: /, '')}`)
    return error instanceof UsageError ? EXIT.usage : EXIT.failed
  }
}

async function run(args: CliArguments, io: CliIo, cwd: string): Promise<number> {
  if (args.command === 'help') {
    io.out(HELP_TEXT)
    return EXIT.ok
  }
  if (args.command === 'introspect') {
    await introspectCommand(args, io, cwd)
    return EXIT.ok
  }
  if (args.command === 'openapi') {
    await openApiCommand(args, io, cwd)
    return EXIT.ok
  }
  const map = await loadRelationMap(args.map, cwd)
  const source = {
    ...(args.context === undefined ? {} : { json: args.context }),
    ...(args.contextModule === undefined ? {} : { module: args.contextModule }),
  }
  const context = await loadContext(source, cwd)
  const given = args.context !== undefined || args.contextModule !== undefined
  let code: number = EXIT.ok
  for (const request of args.requests) {
    try {
      await explainRequest(request, { ...args, map, context }, io)
    } catch (error) {
      if (error instanceof GuardError) throw guardProblem(error, given)
      if (!(error instanceof QueryParamsError)) throw error
      io.err(`${PREFIX}${request}: 400 ${error.code} (${error.param}): ${oneLine(error)}`)
      code = EXIT.rejected
    }
  }
  return code
}

/** A guard that threw: without a context, say how to pass one (naming the property it read when known). */
function guardProblem(error: GuardError, given: boolean): UsageError {
  const cause = oneLine(error.cause)
  if (given) return new UsageError(`${error.table}.guard threw with the given context: ${cause}`)
  const property = /reading '([^']+)'/.exec(cause)?.[1]
  const example = property === undefined ? `'{"tenantId":1}'` : `'${JSON.stringify({ [property]: 1 })}'`
  return new UsageError(
    `${error.table}.guard threw without a context (${cause}): the map's guards read one; pass it with --context ` +
      `${example} or --context-module <file> (exporting it as default or 'context').`,
  )
}
