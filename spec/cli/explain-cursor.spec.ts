import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { encodeCursor } from '../../lib/cursor/cursor-token.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'lib/cli/main.ts', ...args],
      { cwd: root, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 3, stdout, stderr })
      },
    )
  })
}

describe('knex-query-params explain with a cursor', function () {
  this.timeout(60_000)

  it("shows the cursor's decoded position and the page's seek condition, per database", async () => {
    const cursor = encodeCursor(
      { binding: 'b', direction: 'next', values: ['2024-01-02 03:04:05.123456+00', '42'], issuedAt: 1_700_000_000 },
      Buffer.from('a secret the explain command never sees'),
    )
    const run = await cli(
      'explain',
      `/posts?orders[0][column]=created_at&orders[0][direction]=desc&limit=2&cursor=${cursor}`,
      '--map',
      'fixtures/relation-map.ts',
      '--client',
      'pg',
    )
    expect(run.stderr).to.equal('')
    expect(run.code).to.equal(0)
    expect(run.stdout).to.include(
      '  Cursor:   the rows after ["2024-01-02 03:04:05.123456+00","42"], issued 2023-11-14T22:13:20.000Z (signature not checked: explain has no secret)',
    )
    expect(run.stdout).to.include(
      'where ("posts"."created_at", "posts"."id") < ($1, $2) order by "posts"."created_at" desc, "posts"."id" desc limit $3',
    )
    expect(run.stdout).to.include('    Bindings: ["2024-01-02 03:04:05.123456+00","42",3]')
  })

  it('a garbled cursor is the 400 it would be on the server (exit 1)', async () => {
    const run = await cli('explain', '/posts?cursor=abc.def', '--map', 'fixtures/relation-map.ts', '--client', 'pg')
    expect(run.code).to.equal(1)
    expect(run.stderr).to.include('400 invalid_cursor (cursor)')
  })
})
