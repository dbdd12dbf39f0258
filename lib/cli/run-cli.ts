import { QueryParamsError } from '../errors/query-params-error.ts'
import { cliArguments } from './cli-arguments.ts'
import type { CliIo } from './cli-io.ts'
import { explainRequest } from './explain-request.ts'
import { HELP_TEXT } from './help-text.ts'
import { introspectCommand } from './introspect-database.ts'
import { loadRelationMap } from './load-relation-map.ts'
import { UsageError } from './usage-error.ts'

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, rejected: 1, usage: 2 } as const

/**
 * Runs `knex-query-params <argv>` and returns its exit code: 0 when every request was explained or the map
 * generated, 1 when a request was rejected (its QueryParamsError on `io.err`), 2 for a usage error
 * (arguments, map, knexfile, database, output file). Other errors are thrown.
 *
 * @example
 * process.exitCode = await runCli(['explain', '/users?limit=2', '--map', './map.js'], { out: console.log, err: console.error })
 * process.exitCode = await runCli(['introspect', '--connection', 'app.db', '--out', 'relation-map.ts'], { out: console.log, err: console.error })
 */
export async function runCli(argv: readonly string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  try {
    const args = cliArguments(argv)
    if (args.command === 'help') {
      io.out(HELP_TEXT)
      return EXIT.ok
    }
    if (args.command === 'introspect') {
      await introspectCommand(args, io, cwd)
      return EXIT.ok
    }
    const map = await loadRelationMap(args.map, cwd)
    let code: number = EXIT.ok
    for (const request of args.requests) {
      try {
        await explainRequest(request, { ...args, map }, io)
      } catch (error) {
        if (!(error instanceof QueryParamsError)) throw error
        io.err(`${request}\n  400 ${error.code} (${error.param}): ${error.message}\n`)
        code = EXIT.rejected
      }
    }
    return code
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.err(`knex-query-params: ${error.message}\nRun 'knex-query-params --help' for usage.`)
    return EXIT.usage
  }
}
