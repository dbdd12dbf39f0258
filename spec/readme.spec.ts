import { expect } from 'chai'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import knex from 'knex'
import ts from 'typescript'
import { runCli } from '../lib/cli/run-cli.ts'
import { compileErrors } from './support/compile-errors.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

/** The documents a user reads: the README and every page of `docs/` (all shipped in the package). */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/${file}`),
]

/** The servers of README "Serving a list endpoint" (Express, Fastify) and of docs/http.md, each a `src/server.ts`. */
const SERVERS = ['express', 'fastify', 'koa', 'hono', 'node-http'] as const

/** The blocks that make up those apps; the tests below run them together. */
const APP_BLOCKS = ['relation-map', 'db', ...SERVERS] as const

interface Block {
  document: string
  name: string
  source: string
}

/** Every ```ts <name> block of the README and docs/: a named block is an example the suite runs. */
function namedBlocks(): Block[] {
  return DOCUMENTS.flatMap((document) =>
    [...readFileSync(join(root, document), 'utf8').matchAll(/^```ts ([\w-]+)\n([\s\S]*?)^```$/gm)].map(
      ([, name = '', source = '']) => ({ document, name, source }),
    ),
  )
}

function block(name: string): string {
  const found = namedBlocks().filter((candidate) => candidate.name === name)
  expect(
    found.map((candidate) => candidate.document),
    `one \`\`\`ts ${name} block`,
  ).to.have.length(1)
  return found[0]?.source ?? ''
}

/** A scratch directory inside the repository, so `knex-query-params` resolves to this package (its source, with the condition below). */
function scratch(prefix: string): string {
  return mkdtempSync(join(root, `.readme-${prefix}-`))
}

const SOURCE = ['--conditions=knex-query-params:source', '--import', 'tsx']

/** What a block promises to print: the `// [` or `// {` comment line, with the `// ` lines that follow it. */
function promisedOutput(source: string): string | undefined {
  const lines = source.split('\n')
  const first = lines.findIndex((line) => /^\/\/ [[{]/.test(line))
  if (first === -1) return undefined
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('// '))
  return lines
    .slice(first, end === -1 ? undefined : end)
    .map((line) => line.slice(3))
    .join('\n')
}

/** Runs a block and checks it prints what its `// […]` or `// {…}` comment promises. */
function runExample({ document, name, source }: Block): void {
  const promised = promisedOutput(source)
  expect(
    promised,
    `${document} \`\`\`ts ${name} ends with the output it promises, as a // [...] or // {...} line`,
  ).to.be.a('string')
  const dir = scratch(name)
  try {
    writeFileSync(join(dir, `${name}.ts`), source)
    // The condition resolves the package name to lib/, so this runs the source; `npm run test:consumers` runs the quick start on the tarball.
    const output = execFileSync(process.execPath, [...SOURCE, join(dir, `${name}.ts`)], { cwd: root, encoding: 'utf8' })
    expect(output.trim()).to.equal(promised)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('README and docs/ examples', function () {
  this.timeout(60_000)
  const examples = namedBlocks().filter((candidate) => !(APP_BLOCKS as readonly string[]).includes(candidate.name))

  it('every named block has a unique name, and the README and docs/ keep their examples', () => {
    const names = namedBlocks().map((candidate) => candidate.name)
    expect(
      names.filter((name, index) => names.indexOf(name) !== index),
      'names used twice',
    ).to.deep.equal([])
    expect(names).to.include.members([
      'quickstart',
      ...APP_BLOCKS,
      'guards',
      'parameters',
      'define-relation-map',
      'eager-loading',
      'errors',
      'json-values',
      'paginate',
      'introspect',
    ])
  })

  it('every named example type-checks under strict, as a user compiles it', () => {
    const dir = scratch('types')
    try {
      const files = examples.map(({ name, source }) => {
        writeFileSync(join(dir, `${name}.ts`), `${source}\nexport {}\n`)
        return join(dir, `${name}.ts`)
      })
      expect(strictCompileErrors(files)).to.deep.equal([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  for (const example of examples) {
    it(`${example.document} \`\`\`ts ${example.name} runs as written and prints what it promises`, () => {
      runExample(example)
    })
  }
})

/** What "Serving a list endpoint" assumes: a shop with a tenant column and soft deletes, on SQLite here. */
async function createShop(file: string): Promise<void> {
  const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
  try {
    await db.schema.createTable('tenants', (t) => {
      t.increments('id')
      t.string('name').notNullable()
    })
    await db.schema.createTable('categories', (t) => {
      t.increments('id')
      t.integer('tenant_id').notNullable().references('id').inTable('tenants')
      t.string('name').notNullable()
      t.datetime('deleted_at')
    })
    await db.schema.createTable('products', (t) => {
      t.increments('id')
      t.integer('tenant_id').notNullable().references('id').inTable('tenants')
      t.integer('category_id').references('id').inTable('categories')
      t.string('name').notNullable()
      t.decimal('price', 10, 2).notNullable()
      t.datetime('deleted_at')
    })
    await db('tenants').insert([
      { id: 1, name: 'Acme' },
      { id: 2, name: 'Globex' },
    ])
    await db('categories').insert([
      { id: 1, tenant_id: 1, name: 'Lighting' },
      { id: 2, tenant_id: 1, name: 'Discontinued', deleted_at: '2024-01-01 00:00:00' },
      { id: 3, tenant_id: 2, name: 'Globex lighting' },
    ])
    await db('products').insert([
      { id: 1, tenant_id: 1, category_id: 1, name: 'Desk lamp', price: 49.9 },
      { id: 2, tenant_id: 1, category_id: 1, name: 'Floor lamp', price: 129 },
      { id: 3, tenant_id: 1, category_id: 2, name: 'Lamp oil', price: 5.5 },
      { id: 4, tenant_id: 1, category_id: 1, name: 'Broken lamp', price: 10, deleted_at: '2024-02-01 00:00:00' },
      { id: 5, tenant_id: 2, category_id: 3, name: 'Globex lamp', price: 99 },
      { id: 6, tenant_id: 1, category_id: 3, name: 'Lamp shade', price: 15 },
      { id: 7, tenant_id: 1, category_id: null, name: 'Chair', price: 80 },
    ])
  } finally {
    await db.destroy()
  }
}

/** The README's `npx knex-query-params …` command, its `\` continuations joined, as arguments. */
function readmeCommand(command: string): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\\\n\s*/g, '')
  const line = readme.split('\n').find((candidate) => candidate.startsWith(`npx knex-query-params ${command} `))
  expect(line, `README runs npx knex-query-params ${command}`).to.be.a('string')
  return (line ?? '')
    .replace(/\s+#.*$/, '')
    .split(/\s+/)
    .slice(2)
}

/** The URLs of the README's `curl -g '…'` lines, each with what its comment says (if anything). */
function readmeRequests(): Array<{ url: string; comment: string }> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  return [...readme.matchAll(/^curl -g '(http:\/\/localhost:3000[^']+)'(?:\s+#\s*(.*))?$/gm)].map(
    ([, url = '', comment = '']) => ({ url, comment }),
  )
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  return typeof address === 'object' && address !== null ? address.port : 0
}

async function waitUntilServing(base: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 45_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}: ${output()}`)
    try {
      await fetch(`${base}/products?limit=1`)
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  throw new Error(`the app did not answer within 45 s: ${output()}`)
}

/**
 * The TypeScript errors of `files`, compiled with the options `tsc --init` writes (TypeScript 7: `strict`,
 * `noUncheckedIndexedAccess`, `exactOptionalPropertyTypes`, `verbatimModuleSyntax`…) plus the
 * `allowImportingTsExtensions` the README asks for.
 */
function strictCompileErrors(files: readonly string[]): string[] {
  return compileErrors(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    noUncheckedSideEffectImports: true,
    moduleDetection: ts.ModuleDetectionKind.Force,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    customConditions: ['knex-query-params:source'],
    skipLibCheck: true,
    types: ['node'],
  })
}

const PAGE = {
  data: [
    { id: 2, category_id: 1, name: 'Floor lamp', price: 129, category: { id: 1, name: 'Lighting' } },
    { id: 1, category_id: 1, name: 'Desk lamp', price: 49.9, category: { id: 1, name: 'Lighting' } },
    // Another tenant's category, and a deleted one, are hidden by the guard: the relation loads as null.
    { id: 6, category_id: 3, name: 'Lamp shade', price: 15, category: null },
    { id: 3, category_id: 2, name: 'Lamp oil', price: 5.5, category: null },
  ],
  meta: { current_page: 1, per_page: 20, from: 1, to: 4, total: 4, last_page: 1 },
}

describe('README "Serving a list endpoint" and the apps of docs/http.md, as written', function () {
  this.timeout(180_000)
  let dir: string

  before(async () => {
    dir = scratch('app')
    mkdirSync(join(dir, 'src'))
    await createShop(join(dir, 'shop.sqlite'))
  })
  after(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('generates the map with the README command, and the app type-checks under strict', async () => {
    const args = readmeCommand('introspect').map((arg) => (arg === '"$DATABASE_URL"' ? join(dir, 'shop.sqlite') : arg))
    const errors: string[] = []
    expect(await runCli(args, { out: () => undefined, err: (text) => errors.push(text) }, dir)).to.equal(0)
    expect(errors).to.deep.equal([])
    const generated = readFileSync(join(dir, 'src/relation-map.generated.ts'), 'utf8')
    expect(generated).not.to.match(/^\s+(tenant_id|deleted_at|tenants): /m)
    for (const name of APP_BLOCKS) writeFileSync(join(dir, 'src', `${name}.ts`), block(name))
    expect(strictCompileErrors(APP_BLOCKS.map((name) => join(dir, 'src', `${name}.ts`)))).to.deep.equal([])
  })

  for (const framework of SERVERS) {
    it(`the ${framework} app answers the README's requests: a page through the guard, and a 400 problem`, async () => {
      expect(
        existsSync(join(dir, 'src/relation-map.generated.ts')),
        'the map was generated by the test above',
      ).to.equal(true)
      // db.ts is the one piece replaced: the same knex instance, on the SQLite shop instead of PostgreSQL.
      writeFileSync(
        join(dir, 'src/db.ts'),
        `import knex from 'knex'\n\nexport const db = knex({ client: 'better-sqlite3', connection: { filename: ${JSON.stringify(join(dir, 'shop.sqlite'))} }, useNullAsDefault: true })\n`,
      )
      writeFileSync(join(dir, 'src/server.ts'), block(framework))
      const port = await freePort()
      const child = spawn(process.execPath, [...SOURCE, join(dir, 'src/server.ts')], {
        cwd: dir,
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString()
      })
      try {
        const base = `http://127.0.0.1:${port}`
        await waitUntilServing(base, child, () => output)
        const [page, rejected, ...others] = readmeRequests()
        expect(others).to.deep.equal([])
        const pageResponse = await fetch((page?.url ?? '').replace('http://localhost:3000', base))
        expect(pageResponse.status).to.equal(200)
        expect(await pageResponse.json()).to.deep.equal(PAGE)

        expect(rejected?.comment).to.equal('400 unknown_column')
        const response = await fetch((rejected?.url ?? '').replace('http://localhost:3000', base))
        expect(response.status).to.equal(400)
        expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/)
        expect(await response.json()).to.include({ code: 'unknown_column', param: 'wheres[0][column]' })
      } finally {
        child.kill()
        if (child.exitCode === null) await once(child, 'exit')
      }
    })
  }
})

describe('README and docs/ links', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = []
    for (const document of [...DOCUMENTS, 'SECURITY.md', 'CHANGELOG.md']) {
      for (const target of relativeLinks(document)) {
        const [path = '', anchor] = target.split('#')
        const file = path === '' ? document : normalize(join(dirname(document), path))
        if (!existsSync(join(root, file))) broken.push(`${document}: ${target} (no such file)`)
        else if (anchor !== undefined && !anchorsOf(file).has(anchor))
          broken.push(`${document}: ${target} (no such heading)`)
      }
    }
    expect(broken).to.deep.equal([])
  })

  it('link only to files the package ships, so they work in node_modules too', () => {
    const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] }
    const shipped = (file: string): boolean => files.some((entry) => file === entry || file.startsWith(`${entry}/`))
    const outside: string[] = []
    for (const document of [...DOCUMENTS, 'SECURITY.md', 'CHANGELOG.md']) {
      expect(shipped(document), `${document} is in the package`).to.equal(true)
      for (const target of relativeLinks(document)) {
        const [path = ''] = target.split('#')
        const file = path === '' ? document : normalize(join(dirname(document), path)).replace(/\/$/, '')
        if (!shipped(file)) outside.push(`${document}: ${target}`)
      }
    }
    expect(outside).to.deep.equal([])
  })
})

/** The relative link targets of a Markdown file (absolute URLs left out). */
function relativeLinks(document: string): string[] {
  const text = readFileSync(join(root, document), 'utf8')
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target = '']) => target)
    .filter((target) => !/^[a-z]+:/.test(target))
}

function anchorsOf(file: string): Set<string> {
  return new Set(
    [...readFileSync(join(root, file), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) =>
      githubSlug(heading ?? ''),
    ),
  )
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}
