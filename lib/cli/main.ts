#!/usr/bin/env node
/**
 * The `knex-query-params` command: `knex-query-params explain '<url>' --map ./relation-map.js`.
 * See `knex-query-params --help`.
 */
import { runCli } from './run-cli.ts'

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
})
