/** `knex-query-params --help`. */
export const HELP_TEXT = `Usage: knex-query-params explain '<url or query string>'... --map <file> [options]

Shows what a client's list query becomes: the parsed params, the SQL and bindings
for each database, the eager-loading (with) queries, and with --db the rows and
the query plan.

Arguments:
  <url or query string>  '/users?wheres[0][column]=name&limit=2', or a query
                         string with --table; several may be given

Options:
  --map <file>           module exporting the relation map (default export, or
                         'relationMap'); .js/.mjs always load, .ts needs Node's
                         type stripping or tsx installed
  --table <name>         the base table (default: the URL path's last segment)
  --client <name>        only this database's SQL: pg, mysql or sqlite
  --db <url>             run the query, read-only, on this database and print
                         the rows, the queries that ran, and EXPLAIN:
                         postgres://…, mysql://…, sqlite:<file> or <file>.sqlite
  --strict               reject unknown top-level parameters
  -h, --help             this help

Exit codes: 0 explained, 1 the request was rejected (a QueryParamsError, printed
on stderr), 2 a usage error (arguments, map, database).

Example:
  npx knex-query-params explain '/users?with[0]=posts&limit=2' --map ./relation-map.js
`
