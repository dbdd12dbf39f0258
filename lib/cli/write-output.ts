import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { oneLine, UsageError, type CliIo } from './cli-io.ts'

/**
 * Writes a command's result to the file `out` (relative to `cwd`) and prints `summary()` on `io.out`, or without
 * `out` prints the result itself.
 *
 * @throws {UsageError} when the file cannot be written.
 */
export function writeOutput(
  text: string,
  out: string | undefined,
  io: CliIo,
  cwd: string,
  summary: () => string,
): void {
  if (out === undefined) {
    io.out(text.trimEnd())
    return
  }
  try {
    writeFileSync(resolve(cwd, out), text)
  } catch (error) {
    throw new UsageError(`Cannot write ${out}: ${oneLine(error)}`)
  }
  io.out(summary())
}
