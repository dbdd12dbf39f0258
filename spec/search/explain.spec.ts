import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

function explain(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = [
      '--import',
      'tsx',
      'lib/cli/main.ts',
      'explain',
      request,
      '--map',
      'spec/search/support/explain-map.ts',
      '--client',
      'pg',
    ]
    execFile(process.execPath, args, { cwd: root, encoding: 'utf8' }, (error, stdout) =>
      error === null ? resolve(stdout) : reject(error),
    )
  })
}

describe('search: knex-query-params explain', () => {
  it('prints the parsed search and its SQL, each term escaped and bound', async () => {
    const lines = (await explain('/posts?search=knex%20%22100%25%22')).split('\n')
    expect(lines).to.include('           "search": "knex \\"100%\\""')
    const sql = lines.find((line) => line.startsWith('  SQL:')) ?? ''
    expect(sql).to.include(
      `from "posts" where (("posts"."title" ilike $1 or "posts"."body" ilike $2 or "posts"."user_id" = any(array(select "users"."id" from "users" where "users"."name" ilike $3))`,
    )
    expect(sql).to.include(`) and ("posts"."title" ilike $5 or `)
    expect(lines).to.include(
      '  Bindings: ["%knex%","%knex%","%knex%","%knex%","%100\\\\%%","%100\\\\%%","%100\\\\%%","%100\\\\%%"]',
    )
  })
})
