/**
 * `npm run example -- '<url>'…`: `knex-query-params explain` on the demo relation map
 * (`fixtures/relation-map.ts`), with the SQL of every dialect. Without a request, explains a few samples.
 * Options of the CLI pass through: `npm run example -- '/users?limit=2' --db example.sqlite`.
 */
import { runCli } from '../lib/cli/run-cli.ts'

const SAMPLES = [
  '/users?wheres[0][column]=posts.title&wheres[0][operator]=like&wheres[0][value]=%25sql%25&with[0]=posts&orders[0][column]=id&orders[0][direction]=desc&limit=2&page=1&columns[0]=id&columns[1]=name',
  '/posts?wheres[0][column]=published&wheres[0][value]=true&wheres[1][column]=views&wheres[1][operator]=%3E%3D&wheres[1][value]=100&wheres[1][boolean]=or&columns[0]=id&columns[1]=title&with[0]=tags&limit=3',
  '/images?with[0]=imageable&columns[0]=id&columns[1]=url&limit=2',
  // rejected on purpose: `password` is not allow-listed
  '/users?wheres[0][column]=password&wheres[0][operator]=like&wheres[0][value]=a%25',
]
const REQUEST = /^(\/|\?|https?:\/\/|[a-z_]+[[=])/i

const args = process.argv.slice(2)
const samples = !args.some((arg) => REQUEST.test(arg))
const code = await runCli(['explain', '--map', 'fixtures/relation-map.ts', ...(samples ? SAMPLES : []), ...args], {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
})
// The samples end with a rejected request on purpose; that is not a failure of the script.
process.exitCode = samples && code === 1 ? 0 : code
