import { expect } from 'chai'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `lib/knex/` is the one place that reads or writes knex internals and replaces builder methods; the rest of
 * `lib/` uses its API. This spec reads every other file of `lib/` and fails naming each line that reaches past
 * the boundary, and what it reached.
 */

const LIB = fileURLToPath(new URL('../../lib/', import.meta.url))
const BOUNDARY = join(LIB, 'knex')

/** What crosses the boundary, and how to recognise it in a line of source. */
const CROSSINGS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  {
    what: 'an underscore property of a knex builder, client or compiler (`_statements`, `_single`, `_method`, `_options`, `_queryContext`…)',
    pattern: /\._[A-Za-z]\w*/,
  },
  { what: 'the client configuration (`client.config`): use knexConfigOf', pattern: /\bclient\??\.config\b/ },
  {
    what: "the client's names or driver (`client.dialect`, `driverName`, `driver`, `connectionSettings`): use knexDialectNameOf / driverOf",
    pattern: /\bclient\??\.(dialect|driverName|driver|connectionSettings)\b/,
  },
  { what: "knex's compiler or runner (`queryCompiler`, `runner`)", pattern: /\.(queryCompiler|runner)\s*\(/ },
  {
    what: "the client's pool (`acquireConnection`, `releaseConnection`, raw connections): use lib/knex/client.ts",
    pattern: /\.(acquireConnection|releaseConnection|acquireRawConnection|destroyRawConnection)\s*\(/,
  },
  {
    what: "a transaction's client flag (`transacting` read on a client): use inTransaction",
    pattern: /(\)|client\??)\.transacting\b(?!\s*\()/,
  },
  {
    what: 'a new transaction started on a client (`client.transaction(…)`): use runInTransaction',
    pattern: /client\??\.transaction\s*\(/,
  },
  {
    what: "a builder's own methods found through its prototype (`Object.getPrototypeOf`): use runAsKnex / streamAsKnex",
    pattern: /Object\.getPrototypeOf\s*\(/,
  },
  {
    what: 'a builder method replaced or copied (`then`, `toSQL`, `clone`, `stream`)',
    pattern: /(defineProperty|getOwnPropertyDescriptor)\s*\([^)]*['"](then|toSQL|clone|stream|catch)['"]/,
  },
  {
    what: 'a builder method assigned (`.then =`, `.toSQL =`, `.clone =`, `.stream =`)',
    pattern: /\.(then|toSQL|clone|stream|catch)\s*=[^=>]/,
  },
]

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return path === BOUNDARY ? [] : sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** The lines of `text` without comments, so that JSDoc may name what it talks about. */
function codeLines(text: string): string[] {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((line) => line.replace(/(^|[^:'"`])\/\/.*$/, '$1'))
}

describe('knex boundary: only lib/knex/ reaches into knex', () => {
  const files = sourceFiles(LIB)

  it('reads every TypeScript file of lib/ outside lib/knex/', () => {
    expect(files.length, 'lib/ has source files').to.be.greaterThan(100)
    expect(
      files.some((file) => file.startsWith(BOUNDARY)),
      'lib/knex/ is left out',
    ).to.equal(false)
    const folders = readdirSync(LIB, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    const unread = folders
      .map(({ name }) => name)
      .filter((name) => name !== 'knex' && !files.some((file) => relative(LIB, file).startsWith(`${name}/`)))
    expect(unread, 'folders of lib/ whose files are not read').to.deep.equal([])
    expect(
      files.some((file) => relative(LIB, file).startsWith('plan/')),
      'lib/plan/ is read',
    ).to.equal(true)
  })

  it('no file outside lib/knex/ reads knex internals or replaces a builder method', () => {
    const crossings: string[] = []
    for (const file of files) {
      codeLines(readFileSync(file, 'utf8')).forEach((line, index) => {
        for (const { what, pattern } of CROSSINGS) {
          if (pattern.test(line))
            crossings.push(`lib/${relative(LIB, file)}:${index + 1} reaches ${what}: ${line.trim()}`)
        }
      })
    }
    expect(crossings, `outside lib/knex/:\n${crossings.join('\n')}\n`).to.deep.equal([])
  })

  it('recognises each crossing (the patterns are not dead)', () => {
    const samples: Record<string, string> = {
      _statements: 'internals(builder)._statements.push(x)',
      config: 'const name = client.config?.client',
      driver: 'if (client.driverName !== "pg") return',
      compiler: 'builder.client.queryCompiler(builder)',
      pool: 'await client.acquireConnection()',
      transacting: '(builder.client as { transacting?: boolean }).transacting === true',
      transaction: 'builder.client.transaction(read, config, null)',
      prototype: '(Object.getPrototypeOf(builder) as { then: Then }).then.call(builder)',
      defineProperty: "Object.defineProperty(builder, 'toSQL', { value })",
      assignment: 'builder.then = then',
    }
    for (const [name, line] of Object.entries(samples)) {
      expect(
        CROSSINGS.some(({ pattern }) => pattern.test(line)),
        `the ${name} sample is caught`,
      ).to.equal(true)
    }
    const allowed = [
      'const { client } = query',
      'query.transacting(trx)',
      'query.then((rows) => rows)',
      'builder.clone().limit(1)',
      "out.dialect.bareRelation === 'scalar'",
      'return left === right',
    ]
    for (const line of allowed)
      expect(
        CROSSINGS.filter(({ pattern }) => pattern.test(line)).map(({ what }) => what),
        line,
      ).to.deep.equal([])
  })
})
