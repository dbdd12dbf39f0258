/** `knex-query-params --help`. */
export const HELP_TEXT = `Usage: knex-query-params explain '<url or query string>'... --map <file> [options]
       knex-query-params introspect (--connection <url> | --knexfile <file>) [options]
       knex-query-params openapi --map <file> [--out <file>] [--tables <a,b>]

explain: shows what a client's list query becomes: the parsed params, the SQL and
bindings for each database, the eager-loading (with) queries, and with --db the
rows and the query plan.

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
  --context <json>       the context the map's guards receive, as JSON:
                         --context '{"tenantId":1}'
  --context-module <file>
                         a module exporting that context (default export, or
                         'context'; a function is called); with --context too,
                         the JSON's keys win

introspect: reads a database's tables, columns, keys and foreign keys and writes
a relation map module (defineRelationMap) to review and commit. It only reads.

Options:
  --connection <url>     the database: postgres://…, mysql://…, sqlite:<file>
                         or <file>.sqlite / .db (opened read-only)
  --client <name>        pg, mysql or sqlite; checked against --connection
  --knexfile <file>      take the connection from a knexfile instead
  --env <name>           the knexfile's environment (default: NODE_ENV, else
                         development)
  --dialect <name>       postgres, mysql or sqlite: the SQL the knexfile's
                         client speaks, for a client the library does not
                         list (cockroachdb, pgnative, mariadb…)
  --out <file>           write the module there (default: standard output)
  --naming <style>       client names: as-is (default, the database's names),
                         camel (artistId, with column: 'ArtistId') or snake
  --tables <a,b>         only these tables
  --exclude <c,d>        leave these tables out
  --exclude-columns <p,q>
                         leave these columns out of every table: a name or
                         table.column, * for any text (deleted_at,*_secret)
  --no-inverse <t,u>     no hasMany/hasOne onto these tables (the belongsTo
                         to them stay): --no-inverse tenants
  --schema <name>        the PostgreSQL schema (or MySQL database) to read
                         (default: the connection's own)
  --expose-pivots        also expose pivot tables as tables of their own
  --views                read views as resources too (their key: the first
                         column whose name ends in id)
  --sortable-indexed-only
                         sortable: false on every column that no index (nor
                         the primary key) starts with

openapi: writes the OpenAPI 3.1 document (JSON) of the routes that serve the map:
the module's 'openApiOptions' export when it has one (see docs/openapi.md), else
GET /<table> and GET /<table>/{id} for every table.

Options:
  --map <file>           module exporting the relation map, as for explain
  --out <file>           write the document there (default: standard output)
  --tables <a,b>         only these tables (without openApiOptions)

  -h, --help             this help

Every failure is one line on stderr. Exit codes:
  0  explained or generated
  1  a request was rejected (its QueryParamsError)
  2  a usage error: the arguments; the map, context or knexfile module; a guard
     that needs --context; the database (cannot be opened, its driver is not
     installed, it rejected the query); the output file
  3  an unexpected error (a bug: please report it)

Examples:
  npx knex-query-params explain '/users?with[0]=posts&limit=2' --map ./relation-map.js
  npx knex-query-params explain '/products?limit=2' --map ./relation-map.ts --context '{"tenantId":1}'
  npx knex-query-params openapi --map ./relation-map.js --out openapi.json
  npx knex-query-params introspect --client pg --connection postgres://localhost/app --naming camel --out relation-map.ts
`
