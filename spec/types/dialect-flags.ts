// Type tests, compiled by `npm run typecheck` and never run: a dialect cannot choose a form its database does not
// run (only PostgreSQL has LATERAL among the three), and the `dialect` option takes only the three names.
import knex from 'knex'
import {
  applyQueryParams,
  parseQueryParams,
  type ApplyOptions,
  type DialectName,
  type RelationMap,
} from '../../lib/index.ts'
import type { Dialect } from '../../lib/dialect/dialect.ts'
import { mysql } from '../../lib/dialect/mysql.ts'
import { postgres } from '../../lib/dialect/postgres.ts'
import { sqlite } from '../../lib/dialect/sqlite.ts'
import type { Expect, Equal } from './expect-type.ts'

export const lateralOnPostgres: Dialect<'postgres'> = { ...postgres, topPerParent: 'lateral' }
export const windowOnPostgres: Dialect<'postgres'> = { ...postgres, topPerParent: 'window' }
// @ts-expect-error SQLite has no LATERAL
export const lateralOnSqlite: Dialect<'sqlite'> = { ...sqlite, topPerParent: 'lateral' }
// @ts-expect-error MariaDB has no LATERAL
export const lateralOnMysql: Dialect<'mysql'> = { ...mysql, topPerParent: 'lateral' }

const guard = { cap: 1000, walkProbe: 'exists', orderedPivotServes: false, fencedList: false } as const
export const limitGuardOnSqlite: Dialect<'sqlite'> = { ...sqlite, frequencyGuard: { ...guard, at: 'limit' } }
// @ts-expect-error PostgreSQL takes no subquery in LIMIT
export const limitGuardOnPostgres: Dialect<'postgres'> = { ...postgres, frequencyGuard: { ...guard, at: 'limit' } }
// @ts-expect-error MariaDB takes no subquery in LIMIT
export const limitGuardOnMysql: Dialect<'mysql'> = { ...mysql, frequencyGuard: { ...guard, at: 'limit' } }
// Each within 120 columns, so that formatting keeps every directive on the line it is about.
const fenced = { ...guard, at: 'where', fencedList: true } as const
export const fencedListOnPostgres: Dialect<'postgres'> = { ...postgres, frequencyGuard: fenced }
// @ts-expect-error SQLite takes no offset without a limit
export const fencedListOnSqlite: Dialect<'sqlite'> = { ...sqlite, frequencyGuard: fenced }
// @ts-expect-error MariaDB takes no offset without a limit
export const fencedListOnMysql: Dialect<'mysql'> = { ...mysql, frequencyGuard: fenced }

export type DialectNames = Expect<Equal<DialectName, 'postgres' | 'mysql' | 'sqlite'>>
export type ApplyDialect = Expect<Equal<ApplyOptions['dialect'], DialectName | undefined>>

const map: RelationMap = { users: { columns: { id: 'integer' } } }
const cockroach = knex({ client: 'cockroachdb' })
applyQueryParams(cockroach('users'), parseQueryParams('limit=1'), map, { dialect: 'postgres' })
// @ts-expect-error knex's client names are not dialects
applyQueryParams(cockroach('users'), parseQueryParams('limit=1'), map, { dialect: 'cockroachdb' })
