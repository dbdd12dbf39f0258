import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import knex from 'knex'
import { createCatalog } from '../../fixtures/catalog/create-catalog.ts'
import { seedCatalog } from '../../fixtures/catalog/seed-catalog.ts'
import { migrate } from '../../fixtures/migrate.ts'
import { relationMap as fixtureMap } from '../../fixtures/relation-map.ts'
import { seed } from '../../fixtures/seed.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import type { IntrospectArguments } from '../../lib/cli/cli-arguments.ts'
import type { CliIo } from '../../lib/cli/cli-io.ts'
import { introspectDatabase } from '../../lib/cli/introspect-database.ts'
import { runCli } from '../../lib/cli/run-cli.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { CATALOG_MAP, catalogCamelMap, withCatalog } from '../introspect/support/catalog-maps.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { compileErrors, importGeneratedMap } from './support/generated-module.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

interface Output {
  out: string[]
  err: string[]
  io: CliIo
}

function output(): Output {
  const out: string[] = []
  const err: string[] = []
  return { out, err, io: { out: (text) => out.push(text), err: (text) => err.push(text) } }
}

/** A SQLite file holding the seeded catalog schema (made once per `dir`). */
async function catalogFile(dir: string): Promise<string> {
  const file = join(dir, 'catalog.sqlite')
  if (existsSync(file)) return file
  const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
  try {
    await createCatalog(db)
    await seedCatalog(db)
  } finally {
    await db.destroy()
  }
  return file
}

/**
 * Runs `knex-query-params introspect <argv>` against `catalog`: through the command line with its URL
 * (a server) or `sqliteFile`, or, for PGlite (no URL), `introspectDatabase` on its connection.
 */
async function introspect(
  catalog: TestDatabase,
  sqliteFile: string,
  argv: string[],
  dir: string,
): Promise<{ code: number } & Output> {
  const result = output()
  if (catalog.engine === 'pglite') {
    const [naming] = argv.includes('--naming') ? [argv[argv.indexOf('--naming') + 1]] : ['as-is']
    const args: IntrospectArguments = {
      source: { connection: 'pglite' },
      naming: naming === 'camel' ? 'camel' : 'as-is',
      exposePivots: argv.includes('--expose-pivots'),
      out: argv[argv.indexOf('--out') + 1] ?? '',
    }
    if (argv.includes('--sortable-indexed-only')) args.sortableIndexedOnly = true
    await introspectDatabase(catalog.knex, args, result.io, dir)
    return { code: 0, ...result }
  }
  const connection = catalog.server?.url ?? sqliteFile
  const code = await runCli(['introspect', '--connection', connection, ...argv], result.io, dir)
  return { code, ...result }
}

for (const database of testDatabases()) {
  describe(`knex-query-params introspect on the catalog schema (${database.label})`, function () {
    this.timeout(120_000)
    let dir: string

    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'kqp-introspect-'))
    })

    after(() => {
      rmSync(dir, { recursive: true, force: true })
    })

    it('writes modules that compile, pass defineRelationMap, and serve requests through generated relations and aliased columns', async () => {
      await withCatalog(database, async (catalog) => {
        await seedCatalog(catalog.knex)
        const sqliteFile = database.engine === 'sqlite' ? await catalogFile(dir) : ''
        const asIs = await introspect(catalog, sqliteFile, ['--out', 'as-is.ts'], dir)
        const camel = await introspect(
          catalog,
          sqliteFile,
          ['--naming', 'camel', '--expose-pivots', '--out', 'camel.ts'],
          dir,
        )
        expect([asIs.code, asIs.err, camel.code, camel.err]).to.deep.equal([0, [], 0, []])
        expect(asIs.out).to.deep.equal(['Wrote as-is.ts: 7 tables, 12 relations, 4 notices (listed in its header).'])
        expect(camel.out).to.deep.equal(['Wrote camel.ts: 8 tables, 16 relations, 3 notices (listed in its header).'])

        const files = [join(dir, 'as-is.ts'), join(dir, 'camel.ts')]
        expect(compileErrors(files)).to.deep.equal([])
        const text = readFileSync(files[1] ?? '', 'utf8')
        expect(text).to.contain(
          "export const relationMap = defineRelationMap({\n  Album: {\n    primaryKey: 'AlbumId',\n    columns: {\n      albumId: { type: 'integer', column: 'AlbumId' },",
        )
        expect(text).to.contain(' * - app_user.password_hash: left out, its name looks secret\n')
        expect(text).not.to.match(/[ \t]$/m)

        const plain: RelationMap = await importGeneratedMap(files[0] ?? '')
        const aliased: RelationMap = await importGeneratedMap(files[1] ?? '')
        expect(plain).to.deep.equal(CATALOG_MAP)
        expect(aliased).to.deep.equal(catalogCamelMap())
        expect(defineRelationMap(plain)).to.equal(plain)
        expect(defineRelationMap(aliased)).to.equal(aliased)

        const db = catalog.knex
        const tracks = await applyQueryParams(
          db('Track'),
          parseQueryParams(
            'wheres[0][column]=Album.Artist.Name&wheres[0][value]=Accept&orders[0][column]=Name&columns[0]=Name',
          ),
          plain,
        )
        expect(tracks).to.deep.equal([{ Name: 'Balls to the Wall' }, { Name: 'Fast As a Shark' }])
        const inPlaylist = await applyQueryParams(
          db('Track'),
          parseQueryParams('wheres[0][column]=playlists.name&wheres[0][value]=Heavy&columns[0]=TrackId'),
          plain,
        )
        expect(inPlaylist).to.deep.equal([{ TrackId: 3 }])

        const albums = await applyQueryParams(
          db('Album'),
          parseQueryParams(
            'wheres[0][column]=artist.name&wheres[0][value]=Accept&wheres[1][column]=artistId&wheres[1][value]=2&orders[0][column]=title&orders[0][direction]=desc&columns[0]=title&columns[1]=artistId',
          ),
          aliased,
        )
        expect(albums).to.deep.equal([
          { title: 'Restless and Wild', artistId: 2 },
          { title: 'Balls to the Wall', artistId: 2 },
        ])
        const links = await applyQueryParams(
          db('playlist_track'),
          parseQueryParams(
            'wheres[0][column]=playlist.name&wheres[0][value]=Music&orders[0][column]=trackId&columns[0]=playlistId&columns[1]=trackId&limit=10',
          ),
          aliased,
        )
        expect(links).to.deep.equal([
          { playlistId: 1, trackId: 1 },
          { playlistId: 3, trackId: 1 },
          { playlistId: 1, trackId: 2 },
        ])
        const withArtist = await applyQueryParams(
          db('Album'),
          parseQueryParams('wheres[0][column]=albumId&wheres[0][value]=1&columns[0]=title&with[0]=artist'),
          aliased,
        )
        expect(withArtist).to.deep.equal([
          { title: 'For Those About To Rock We Salute You', artist: { artistId: 1, name: 'AC/DC' } },
        ])
      })
    })

    it('--sortable-indexed-only: sortable: false on each column no index nor primary key starts with, said in the header; orders on them are refused', async () => {
      await withCatalog(database, async (catalog) => {
        await seedCatalog(catalog.knex)
        const sqliteFile = database.engine === 'sqlite' ? await catalogFile(dir) : ''
        const run = await introspect(catalog, sqliteFile, ['--sortable-indexed-only', '--out', 'indexed-only.ts'], dir)
        expect([run.code, run.err]).to.deep.equal([0, []])
        expect(run.out).to.deep.equal([
          'Wrote indexed-only.ts: 7 tables, 12 relations, 11 notices (listed in its header).',
        ])
        const file = join(dir, 'indexed-only.ts')
        expect(compileErrors([file])).to.deep.equal([])
        const text = readFileSync(file, 'utf8')
        expect(text).to.contain(
          'generated by `knex-query-params introspect` (naming: as-is; sortable: indexed columns only)',
        )
        expect(text).to.contain(
          ' * - Track: sortable: false on Milliseconds, UnitPrice, Explicit, since no index starts with them (sortableIndexedOnly)\n',
        )
        expect(text).to.contain(
          ' * - playlist: sortable: false on name, since no index starts with it (sortableIndexedOnly)\n',
        )
        expect(text).to.contain(`  Album: {
    primaryKey: 'AlbumId',
    columns: {
      AlbumId: 'integer',
      Title: { type: 'string', nullable: false, sortable: false },
      ArtistId: { type: 'integer', nullable: false },
    },`)
        const map: RelationMap = await importGeneratedMap(file)
        expect(map.Track?.columns).to.deep.equal({
          TrackId: 'integer',
          Name: { type: 'string', nullable: false },
          AlbumId: 'integer',
          Milliseconds: { type: 'integer', nullable: false, sortable: false },
          UnitPrice: { type: 'decimal', nullable: false, sortable: false },
          Explicit: { type: 'boolean', nullable: false, sortable: false },
        })
        const db = catalog.knex
        expectQueryParamsError(
          () => applyQueryParams(db('Track'), parseQueryParams('orders[0][column]=Milliseconds'), map),
          {
            code: 'not_sortable',
            param: 'orders[0][column]',
            allowed: ['TrackId', 'Name', 'AlbumId'],
          },
        )
        const byName = await applyQueryParams(
          db('Track'),
          parseQueryParams('orders[0][column]=Name&columns[0]=Name&limit=2'),
          map,
        )
        expect(byName).to.deep.equal([{ Name: 'Balls to the Wall' }, { Name: 'Fast As a Shark' }])
      })
    })
  })
}

describe('knex-query-params introspect (the command line, SQLite)', function () {
  this.timeout(120_000)
  let dir: string
  let file: string

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kqp-introspect-cli-'))
    file = await catalogFile(dir)
  })

  after(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('runs as the bin: the module on standard output, the same text on every run', async () => {
    const run = (): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        execFile(
          process.execPath,
          [
            '--import',
            'tsx',
            join(root, 'lib/cli/main.ts'),
            'introspect',
            '--client',
            'sqlite',
            '--connection',
            file,
            '--tables',
            'Artist,Album',
          ],
          { cwd: root, encoding: 'utf8' },
          (error, stdout, stderr) => {
            resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
          },
        )
      })
    const [first, second] = [await run(), await run()]
    expect(first.code, first.stderr).to.equal(0)
    expect(second.stdout).to.equal(first.stdout)
    expect(first.stdout).to.contain(
      'generated by `knex-query-params introspect` (naming: as-is; tables: Artist, Album)',
    )
    expect(first.stdout).to.contain(`export const relationMap = defineRelationMap({
  Album: {
    primaryKey: 'AlbumId',
    columns: {
      AlbumId: 'integer',
      Title: { type: 'string', nullable: false },
      ArtistId: { type: 'integer', nullable: false },
    },
    relations: {
      Artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'ArtistId', required: true },
    },
  },
  Artist: {
    primaryKey: 'ArtistId',
    columns: {
      ArtistId: 'integer',
      Name: { type: 'string', nullable: false },
    },
    relations: {
      Albums: { type: 'hasMany', table: 'Album', foreignKey: 'ArtistId' },
    },
  },
})
`)
  })

  it('reads the connection from a knexfile, in the environment --env names', async () => {
    writeFileSync(
      join(dir, 'knexfile.mjs'),
      `export default {\n  development: { client: 'better-sqlite3', connection: { filename: 'missing.sqlite', fileMustExist: true }, useNullAsDefault: true },\n  test: { client: 'better-sqlite3', connection: { filename: ${JSON.stringify(file)} }, useNullAsDefault: true },\n}\n`,
    )
    const result = output()
    expect(
      await runCli(
        [
          'introspect',
          '--knexfile',
          'knexfile.mjs',
          '--env',
          'test',
          '--naming',
          'camel',
          '--exclude',
          'Employee',
          '--out',
          'from-knexfile.ts',
        ],
        result.io,
        dir,
      ),
    ).to.equal(0)
    expect(result.out).to.deep.equal([
      'Wrote from-knexfile.ts: 6 tables, 10 relations, 5 notices (listed in its header).',
    ])
    const text = readFileSync(join(dir, 'from-knexfile.ts'), 'utf8')
    expect(text).to.contain(' * - Employee: left out, excluded\n')
    expect(text).not.to.contain('  Employee: {')

    const missing = output()
    expect(await runCli(['introspect', '--knexfile', 'knexfile.mjs', '--env', 'staging'], missing.io, dir)).to.equal(2)
    expect(missing.err[0]).to.equal(
      "knex-query-params: The knexfile knexfile.mjs has no environment 'staging' (environments: development, test); pick one with --env.",
    )
  })

  it('--dialect declares the database of a knexfile whose client the library does not list', async () => {
    const client = new URL('../../node_modules/knex/lib/dialects/better-sqlite3/index.js', import.meta.url).href
    writeFileSync(
      join(dir, 'knexfile-acme.mjs'),
      `import Client from ${JSON.stringify(client)}\nclass AcmeSqliteClient extends Client {}\nexport default { client: AcmeSqliteClient, connection: { filename: ${JSON.stringify(file)} }, useNullAsDefault: true }\n`,
    )
    const refused = output()
    expect(await runCli(['introspect', '--knexfile', 'knexfile-acme.mjs'], refused.io, dir)).to.equal(2)
    expect(refused.err).to.deep.equal([
      "knex-query-params: the knex client 'AcmeSqliteClient' is not one the library knows (pg, postgres, postgresql, knex-pglite, sqlite3, sqlite, better-sqlite3, mysql, mysql2). If the database speaks the SQL of one of them, declare it with the option dialect: 'postgres', 'mysql' or 'sqlite' (of applyQueryParams, loadRelations, paginate and the introspection functions; --dialect for the CLI).",
    ])
    const declared = output()
    expect(
      await runCli(
        ['introspect', '--knexfile', 'knexfile-acme.mjs', '--dialect', 'sqlite', '--tables', 'Artist,Album'],
        declared.io,
        dir,
      ),
    ).to.equal(0)
    expect(declared.out.join('\n')).to.contain(' * The relation map of a SQLite database')
    expect(declared.out.join('\n')).to.contain("Albums: { type: 'hasMany', table: 'Album', foreignKey: 'ArtistId' }")
  })

  const usageErrors: Array<[string, string[], RegExp]> = [
    [
      'a table the database lacks',
      ['--tables', 'Artist,Nope'],
      /^knex-query-params: readSchema: no table 'Nope' in the database/,
    ],
    [
      'an excluded table the database lacks',
      ['--exclude', 'Nope'],
      /^knex-query-params: options\.exclude: no table 'Nope' in the database \(tables: Album, Artist, /,
    ],
    [
      'a --client that does not match the URL',
      ['--client', 'pg'],
      /^knex-query-params: --client pg does not match --connection, a SQLite database\./,
    ],
  ]
  for (const [what, argv, message] of usageErrors) {
    it(`exits 2 on ${what}`, async () => {
      const result = output()
      expect(await runCli(['introspect', '--connection', file, ...argv], result.io, dir)).to.equal(2)
      expect(result.out).to.deep.equal([])
      expect(result.err[0]).to.match(message)
    })
  }

  it('exits 2 when the database cannot be opened, and never creates a SQLite file', async () => {
    const result = output()
    expect(await runCli(['introspect', '--connection', join(dir, 'nothing-here.sqlite')], result.io, dir)).to.equal(2)
    expect(result.err[0]).to.match(/^knex-query-params: Cannot open the database .*nothing-here\.sqlite: /)
    expect(() => readFileSync(join(dir, 'nothing-here.sqlite'))).to.throw(/ENOENT/)
    const server = output()
    expect(
      await runCli(['introspect', '--connection', 'postgres://someone:secret@127.0.0.1:1/none'], server.io, dir),
    ).to.equal(2)
    expect(server.err[0]).to.match(/^knex-query-params: Cannot open the database postgres:\/\/…@127\.0\.0\.1:1\/none: /)
    expect(server.err[0]).not.to.contain('secret')
  })

  it('documents introspect in --help', async () => {
    const result = output()
    expect(await runCli(['--help'], result.io, dir)).to.equal(0)
    expect(result.out[0]).to.contain('knex-query-params introspect (--connection <url> | --knexfile <file>) [options]')
    expect(result.out[0]).to.contain('--naming <style>')
    expect(result.out[0]).to.contain('--sortable-indexed-only')
  })
})

describe("docs/generating-the-map.md 'Adding morph relations, guards and scopes' on a generated demo map (SQLite)", function () {
  this.timeout(120_000)
  let dir: string

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kqp-introspect-readme-'))
  })

  after(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('compiles next to the generated module, and serves the morph relations, guards and scopes it adds', async () => {
    const file = join(dir, 'demo.sqlite')
    const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
    try {
      await migrate(db)
      await seed(db)
      await db('images').where({ id: 1 }).update({ deleted_at: '2024-06-01 00:00:00' })
      const result = output()
      expect(
        await runCli(['introspect', '--connection', file, '--out', 'relation-map.generated.ts'], result.io, dir),
      ).to.equal(0)

      const readme = readFileSync(join(root, 'docs/generating-the-map.md'), 'utf8')
      const example =
        /```ts\n(import type \{ Knex \} from 'knex'\nimport \{ defineRelationMap \} from 'knex-query-params'\nimport \{ relationMap as generated \} from '\.\/relation-map\.generated\.ts'\n[\s\S]*?)```/.exec(
          readme,
        )?.[1]
      expect(example, 'the example of docs/generating-the-map.md').to.be.a('string')
      writeFileSync(join(dir, 'relation-map.ts'), example ?? '')
      expect(compileErrors([join(dir, 'relation-map.generated.ts'), join(dir, 'relation-map.ts')])).to.deep.equal([])

      const generatedRunnable = join(dir, 'relation-map.generated.run.ts')
      await importGeneratedMap(join(dir, 'relation-map.generated.ts'))
      writeFileSync(
        join(dir, 'relation-map.ts'),
        (example ?? '').replace("'./relation-map.generated.ts'", JSON.stringify(generatedRunnable)),
      )
      const map = await importGeneratedMap(join(dir, 'relation-map.ts'))
      const fixture = (query: string, table: string): Promise<unknown> =>
        applyQueryParams(db(table), parseQueryParams(query), fixtureMap)

      const admins = 'scopes[0]=admins&with[0]=images&columns[0]=id&orders[0][column]=id'
      const withImages = await applyQueryParams(db('users'), parseQueryParams(admins), map)
      expect(withoutDeletedAt(withImages)).to.deep.equal(stripDeleted(await fixture(admins, 'users')))
      expect(JSON.stringify(withImages)).to.contain('"images":[{')
      const parents =
        'with[0]=imageable&columns[0]=id&columns[1]=imageable_type&columns[2]=imageable_id&orders[0][column]=id'
      type Image = {
        id: number
        imageable_type: string
        imageable: { id: number; name?: string; title?: string } | null
      }
      const summary = (rows: unknown): string[] =>
        (rows as Image[]).map(
          (image) =>
            `${image.id} ${image.imageable_type} ${image.imageable?.id ?? 'none'} ${image.imageable?.name ?? image.imageable?.title ?? ''}`,
        )
      const images = summary(await applyQueryParams(db('images'), parseQueryParams(parents), map))
      expect(images).to.have.length.greaterThan(3)
      expect(images).to.deep.equal(summary(await fixture(parents, 'images')).filter((line) => !line.startsWith('1 ')))
    } finally {
      await db.destroy()
    }
  })
})

/** The generated map also lists `deleted_at` (a listed difference from the fixture): leave it out of the loaded images. */
function withoutDeletedAt(rows: unknown): unknown {
  return (rows as Array<{ images?: Array<Record<string, unknown>> }>).map((row) => ({
    ...row,
    images: row.images?.map(({ deleted_at: _deletedAt, ...image }) => image),
  }))
}

/** The fixture map has no guards: drop the image the example's guard hides (id 1, soft-deleted above). */
function stripDeleted(rows: unknown): unknown {
  return (rows as Array<{ images?: Array<{ id: number }> }>).map((row) => ({
    ...row,
    images: row.images?.filter((image) => image.id !== 1),
  }))
}

for (const database of testDatabases().filter((candidate) => candidate.name === 'postgres')) {
  describe(`knex-query-params introspect --schema (${database.label})`, function () {
    this.timeout(60_000)

    it('reads the named PostgreSQL schema instead of the connection’s own, and says so in the header', async () => {
      await withCatalog(database, async (catalog) => {
        await catalog.knex.raw('create schema kqp_other')
        await catalog.knex.raw('create table kqp_other.things (id serial primary key, label text not null)')
        const result = output()
        const args: IntrospectArguments = {
          source: { connection: catalog.server?.url ?? 'pglite' },
          naming: 'as-is',
          exposePivots: false,
          schema: 'kqp_other',
        }
        let code = 0
        if (catalog.server === undefined) await introspectDatabase(catalog.knex, args, result.io, root)
        else
          code = await runCli(
            ['introspect', '--connection', catalog.server.url, '--schema', 'kqp_other'],
            result.io,
            root,
          )
        expect(result.err).to.deep.equal([])
        expect(code).to.equal(0)
        const text = result.out.join('\n')
        expect(text).to.include('(naming: as-is; schema: kqp_other)')
        expect(text).to.include(
          `  things: {\n    columns: {\n      id: 'integer',\n      label: { type: 'string', nullable: false },\n    },\n  },`,
        )
        expect(text).not.to.include('Album')
      })
    })
  })
}
