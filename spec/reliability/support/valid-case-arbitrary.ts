import fc from 'fast-check'
import { demoData } from '../../../fixtures/data.ts'
import type { ApplyOptions } from '../../../lib/options.ts'
import type { ClientScalar, Operator, Order, QueryParams, WhereDescription } from '../../../lib/query-params.ts'
import type { ColumnType } from '../../../lib/relation-map.ts'
import {
  DEMO_TABLE_NAMES,
  existsPaths,
  filterColumns,
  orderColumns,
  ownColumns,
  primaryKey,
  scopeNames,
  withPaths,
  type ColumnPath,
} from './demo-paths.ts'

/** A structurally valid request over the demo relation map. */
export interface ValidCase {
  table: string
  params: QueryParams
  options: ApplyOptions
  /**
   * Whether the rows depend on how the database collates text: comparing, ordering or deduplicating text
   * columns. PostgreSQL (C collation, as the test databases use) and SQLite compare code points; MySQL's
   * default collations ignore case, accents and trailing spaces, so such requests are not compared with it.
   */
  collationSensitive: boolean
}

/**
 * `any`: every value its column's type accepts, unicode and edge values included (for "executes without
 * a database error"). `portable`: values whose meaning is the same on every database — text patterns
 * built from the demo data in ASCII — and a final primary-key order, so rows can be compared across databases.
 */
export type ValidCaseMode = 'any' | 'portable'

const DEPTH = 2
const TEXT_OPERATORS: readonly Operator[] = [
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'like',
  'in',
  'notIn',
  'between',
  'notBetween',
]
const OTHER_OPERATORS: readonly Operator[] = TEXT_OPERATORS.filter((operator) => operator !== 'like')
const NUL = '\u0000'

function dataValues(table: string, column: string): unknown[] {
  const rows = (demoData as unknown as Record<string, Array<Record<string, unknown>>>)[table] ?? []
  return rows.map((row) => row[column]).filter((value) => value !== null && value !== undefined)
}

const flipCase = (text: string, flips: readonly boolean[]): string =>
  [...text]
    .map((char, i) =>
      flips[i % Math.max(flips.length, 1)] === true
        ? char === char.toLowerCase()
          ? char.toUpperCase()
          : char.toLowerCase()
        : char,
    )
    .join('')

/** A pattern of ASCII text taken from the data: a substring, wildcards around it, `_` for some characters. */
function dataPattern(texts: readonly string[]): fc.Arbitrary<string> {
  const source = texts.length === 0 ? ['a'] : texts
  return fc
    .tuple(
      fc.constantFrom(...source),
      fc.nat(),
      fc.nat(),
      fc.array(fc.boolean(), { maxLength: 6 }),
      fc.constantFrom('%s%', 's%', '%s', 's', '%s_%'),
      fc.array(fc.nat(), { maxLength: 2 }),
    )
    .map(([text, a, b, flips, shape, blanks]) => {
      const start = text.length === 0 ? 0 : a % text.length
      const end = start + (text.length === 0 ? 0 : b % (text.length - start + 1))
      let sub = [...text.slice(start, end)].map((char) => (char.charCodeAt(0) > 127 ? '_' : char)).join('')
      for (const at of blanks)
        if (sub.length > 0) sub = `${sub.slice(0, at % sub.length)}_${sub.slice((at % sub.length) + 1)}`
      return shape.replace('s', flipCase(sub, flips))
    })
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10)
}

const dates = (min: string, max: string): fc.Arbitrary<Date> =>
  fc.date({ min: new Date(min), max: new Date(max), noInvalidDate: true })

/** A datetime as a client writes it: with or without milliseconds, `Z`, an offset, no zone, or a bare date. */
function datetimeText(mode: ValidCaseMode): fc.Arbitrary<string> {
  const range =
    mode === 'portable'
      ? dates('2020-01-01T00:00:00Z', '2031-01-01T00:00:00Z')
      : dates('0002-01-01T00:00:00Z', '9998-12-31T00:00:00Z')
  return fc.tuple(range, fc.constantFrom('iso', 'seconds', 'offset', 'local', 'date', 'space')).map(([date, form]) => {
    const iso = date.toISOString()
    switch (form) {
      case 'iso':
        return iso
      case 'seconds':
        return `${iso.slice(0, 19)}Z`
      case 'offset': {
        const shifted = new Date(date.getTime() + 330 * 60_000).toISOString()
        return `${shifted.slice(0, 19)}+05:30`
      }
      case 'local':
        return iso.slice(0, 19)
      case 'date':
        return iso.slice(0, 10)
      default:
        return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
    }
  })
}

function scalarFor(type: ColumnType, path: ColumnPath, mode: ValidCaseMode): fc.Arbitrary<ClientScalar> {
  const fromData = dataValues(path.table, path.column)
  switch (type) {
    case 'string': {
      const texts = fromData.map(String)
      const data = fc
        .tuple(fc.constantFrom(...(texts.length === 0 ? ['x'] : texts)), fc.array(fc.boolean(), { maxLength: 4 }))
        .map(([text, flips]) => flipCase(text, flips))
      if (mode === 'portable')
        return fc.oneof(
          data,
          fc.string({ maxLength: 8 }).filter((text) => !text.includes(NUL) && text !== 'null'),
        )
      return fc
        .oneof(
          data,
          fc.string({ unit: 'grapheme', maxLength: 30 }),
          fc.string({ unit: 'binary', maxLength: 10 }),
          fc.string({ minLength: 900, maxLength: 1000 }),
          fc.constantFrom('', ' ', "'", '"', '\\', '%', '_', "O'Brien", '\u{1F600}', 'Ⅻ', '\u202E', 'é', 'e\u0301'),
        )
        .filter((text) => !text.includes(NUL) && text !== 'null')
    }
    case 'integer': {
      const small = fc.integer({ min: -5, max: 2000 })
      const edges = fc.constantFrom(
        2147483647,
        -2147483647,
        2147483648,
        -2147483648,
        3000000000,
        9007199254740991,
        -9007199254740991,
        0,
      )
      return fc
        .tuple(
          mode === 'portable' ? fc.oneof(small, fc.constantFrom(...(fromData as number[]))) : fc.oneof(small, edges),
          fc.constantFrom('text', 'number', 'plus'),
        )
        .map(([n, form]) => (form === 'number' ? n : form === 'plus' && n >= 0 ? `+${n}` : String(n)))
    }
    case 'number': {
      const data = fc.constantFrom(...(fromData.length === 0 ? [0] : (fromData as number[])))
      const anyNumber = fc.double({ noNaN: true, noDefaultInfinity: true })
      const arbitrary =
        mode === 'portable'
          ? fc.oneof(data, fc.integer({ min: -10, max: 2000 }), fc.double({ min: -100, max: 100, noNaN: true }))
          : fc.oneof(data, anyNumber, fc.constantFrom(5e-324, 1.7976931348623157e308, -0, 1e21))
      return fc.tuple(arbitrary, fc.boolean()).map(([n, asText]) => (asText ? String(n) : n))
    }
    case 'boolean':
      return fc.constantFrom<ClientScalar>(true, false, 'true', 'false', '1', '0', 'TRUE', 'False', 1, 0)
    case 'date':
      return mode === 'portable'
        ? fc.oneof(
            fc.constantFrom(...(fromData as string[])),
            dates('1900-01-01T00:00:00Z', '2030-01-01T00:00:00Z').map(isoDate),
          )
        : fc.oneof(dates('0001-01-01T00:00:00Z', '9999-12-31T00:00:00Z').map(isoDate), datetimeText(mode))
    case 'datetime':
      return mode === 'portable'
        ? fc.oneof(
            fc.constantFrom(...(fromData as string[]).map((text) => `${text.replace(' ', 'T')}Z`)),
            datetimeText(mode),
          )
        : datetimeText(mode)
    case 'bigint':
    case 'decimal':
      return fc.constantFrom<ClientScalar>(...(fromData.length === 0 ? ['0'] : fromData.map(String)))
    case 'json':
      throw new Error(`${path.table}.${path.column}: a json column takes no filter value`)
  }
}

interface WhereCase {
  where: WhereDescription
  sensitive: boolean
}

function whereFor(path: ColumnPath, mode: ValidCaseMode): fc.Arbitrary<WhereCase> {
  const operators = path.type === 'string' ? TEXT_OPERATORS : OTHER_OPERATORS
  const scalar = scalarFor(path.type, path, mode)
  const texts = dataValues(path.table, path.column).map(String)
  const pattern =
    mode === 'portable'
      ? dataPattern(texts)
      : fc.oneof(
          dataPattern(texts),
          scalar.map(String).filter((text) => text !== 'null'),
        )
  // Comparing text depends on the collation, so portable cases mostly match text with `like`, to keep MySQL in the comparison.
  const operator =
    mode === 'portable' && path.type === 'string'
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constant<Operator>('like') },
          { weight: 1, arbitrary: fc.constantFrom(...operators) },
        )
      : fc.constantFrom(...operators)
  return fc
    .tuple(operator, fc.constantFrom<'and' | 'or'>('and', 'or'), fc.nat({ max: 9 }))
    .chain(([operator, boolean, nullChance]) => {
      const base = { column: path.path, operator, boolean }
      const text = path.type === 'string'
      let value: fc.Arbitrary<ClientScalar | ClientScalar[]>
      if (operator === 'like') value = pattern
      else if (operator === '=' || operator === '!=')
        value = nullChance === 0 ? fc.constantFrom<ClientScalar>(null, 'null') : scalar
      else if (operator === 'in' || operator === 'notIn')
        value = fc.array(nullChance === 0 ? fc.option(scalar, { nil: null }) : scalar, { maxLength: 5 })
      else if (operator === 'between' || operator === 'notBetween') value = fc.tuple(scalar, scalar)
      else value = scalar
      return value.map((v) => {
        const isNullTest = v === null || v === 'null' || (Array.isArray(v) && v.every((item) => item === null))
        return { where: { ...base, value: v }, sensitive: text && operator !== 'like' && !isNullTest }
      })
    })
}

function tableCase(table: string, mode: ValidCaseMode): fc.Arbitrary<ValidCase> {
  const columns = ownColumns(table)
  const stringColumns = new Set(columns.filter((column) => column.type === 'string').map((column) => column.column))
  const filterPaths = filterColumns(table, DEPTH)
  const orderPaths = orderColumns(table, DEPTH)
  const names = columns.map((column) => column.column)
  const pk = primaryKey(table)
  // Half of the portable orders avoid text, whose order is the collation's.
  const portableOrders = [...orderPaths, ...orderPaths.filter((path) => path.type !== 'string')]
  return fc
    .record({
      wheres: fc.array(
        fc.constantFrom(...filterPaths).chain((path) => whereFor(path, mode)),
        { maxLength: 4 },
      ),
      relationsExists: fc.subarray(existsPaths(table, DEPTH), { maxLength: 2 }),
      scopes: fc.subarray(scopeNames(table)),
      columns: fc.option(fc.shuffledSubarray(names, { minLength: 1 }), { nil: undefined, freq: 3 }),
      distinct: fc.option(fc.shuffledSubarray(names, { minLength: 1, maxLength: 3 }), { nil: undefined, freq: 5 }),
      orders: fc.array(
        fc.tuple(
          fc.constantFrom(...(mode === 'portable' ? portableOrders : orderPaths)),
          fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        ),
        { maxLength: 3 },
      ),
      with: fc.subarray(withPaths(table, DEPTH), { maxLength: 3 }),
      limit: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
      page: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined, freq: 4 }),
      offset: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined, freq: 4 }),
      like: fc.constantFrom<'insensitive' | 'sensitive'>('insensitive', 'insensitive', 'sensitive'),
    })
    .map((draft) => {
      const params: QueryParams = {}
      let sensitive = draft.wheres.some((where) => where.sensitive)
      if (draft.wheres.length > 0) params.wheres = draft.wheres.map((where) => where.where)
      if (draft.relationsExists.length > 0) params.relationsExists = draft.relationsExists
      if (draft.scopes.length > 0) params.scopes = draft.scopes
      if (draft.columns !== undefined) params.columns = draft.columns
      let orders: Order[] = draft.orders.map(([path, direction]) => ({ column: path.path, direction }))
      if (draft.distinct !== undefined) {
        params.distinct = draft.distinct
        const selected = new Set([...draft.distinct, ...(draft.columns ?? [])])
        orders = orders.filter((order) => selected.has(order.column))
        if ([...selected].some((column) => stringColumns.has(column))) sensitive = true
      } else {
        if (draft.with.length > 0) params.with = draft.with
        // normalizeRows types a morphTo relation by the row's `<name>_type`, so keep it when comparing rows.
        if (mode === 'portable' && draft.with.length > 0 && params.columns !== undefined) {
          params.columns = [...new Set([...params.columns, ...names.filter((name) => name.endsWith('_type'))])]
        }
        if (mode === 'portable') orders.push({ column: pk, direction: draft.orders.length % 2 === 0 ? 'asc' : 'desc' })
      }
      const orderTypes = new Map(orderPaths.map((path) => [path.path, path.type]))
      if (orders.some((order) => orderTypes.get(order.column) === 'string')) sensitive = true
      if (orders.length > 0) params.orders = orders
      if (draft.limit !== undefined) params.limit = draft.limit
      if (draft.page !== undefined) params.page = draft.page
      if (draft.offset !== undefined) params.offset = draft.offset
      return { table, params, options: { like: draft.like }, collationSensitive: sensitive }
    })
}

/**
 * Random structurally valid requests over the demo map: wheres on own and relation columns (through up
 * to two relations) with values of the column's type, relationsExists, scopes, columns, distinct,
 * orders (to-one paths too), with, and pagination.
 */
export function validCase(mode: ValidCaseMode, tables: readonly string[] = DEMO_TABLE_NAMES): fc.Arbitrary<ValidCase> {
  return fc.constantFrom(...tables).chain((table) => tableCase(table, mode))
}
