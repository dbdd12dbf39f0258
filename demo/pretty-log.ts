import { Writable } from 'node:stream'

const LEVELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
}
const SHOWN = ['code', 'param'] as const

/**
 * One pino JSON line as a terminal reads it: `12:00:01 INFO  GET /users?limit=2 200 3.1ms`, then the
 * rejection's `code=… param=…` and, for an error, its stack on the next lines. A line that is not JSON
 * is kept as it is.
 *
 * @example
 * prettyLogLine('{"level":30,"time":0,"msg":"GET / 200 1ms"}') // '00:00:00 INFO  GET / 200 1ms'
 */
export function prettyLogLine(line: string): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(line) as Record<string, unknown>
  } catch {
    return line.trimEnd()
  }
  const time = typeof entry['time'] === 'number' ? new Date(entry['time']).toISOString().slice(11, 19) : ''
  const level = (LEVELS[Number(entry['level'])] ?? 'LOG').padEnd(5)
  const fields = SHOWN.filter((name) => entry[name] !== undefined).map((name) => ` ${name}=${String(entry[name])}`)
  const error = entry['err'] as { stack?: unknown } | undefined
  const stack = typeof error?.stack === 'string' ? `\n  ${error.stack.replace(/\n/g, '\n  ')}` : ''
  return `${time} ${level} ${String(entry['msg'] ?? '')}${fields.join('')}${stack}`
}

/**
 * Where the demo's logger writes: pretty lines (see {@link prettyLogLine}) when `output` is a terminal,
 * pino's JSON lines as they are otherwise (a file, a pipe, a log collector).
 *
 * @example
 * Fastify({ logger: { level: 'info', stream: logDestination(process.stdout) } })
 */
export function logDestination(output: NodeJS.WritableStream & { isTTY?: boolean }): NodeJS.WritableStream {
  if (output.isTTY !== true) return output
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = String(chunk)
      for (const line of text.split('\n')) if (line !== '') output.write(`${prettyLogLine(line)}\n`)
      done()
    },
  })
}
