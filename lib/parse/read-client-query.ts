import { QueryParamsError } from '../errors/query-params-error.ts'
import type { ParseOptions } from '../options.ts'
import type { Order, QueryParamKey, QueryParams, WhereDescription } from '../query-params.ts'
import { indexText, readIndex } from './canonical-key.ts'
import { decodeComponent } from './decode-component.ts'
import { attachSource, type ParamSource } from './param-source.ts'
import { orderFromFields, parseInteger, parseName } from './parse-values.ts'
import { whereFromFields } from './parse-where.ts'
import { queryOf } from './query-part.ts'
import type { RawValue } from './raw-value.ts'

const ENCODED_BRACKET = /%5[bd]/i
/** The path handed to the shared checks: never shown, since any error hands the query to the general reader. */
const UNREAD = ''

const WHERE_FIELDS = ['column', 'operator', 'value', 'boolean'] as const
const ORDER_FIELDS = ['column', 'direction'] as const
const VALUE = 2
const WHERE = 0
const ORDER = 1
const NAME = 2
const INTEGER = 3
const NAME_LISTS: ReadonlyArray<readonly [string, QueryParamKey]> = [
  ['with', 'with'],
  ['scopes', 'scopes'],
  ['columns', 'columns'],
  ['distinct', 'distinct'],
  ['relations_exists', 'relationsExists'],
  ['relationsExists', 'relationsExists'],
]

type NameKey = 'columns' | 'with' | 'scopes' | 'relationsExists' | 'distinct'

/**
 * The fused reader: reads a query string written exactly as the reference client writes it — `wheres[i][column]`,
 * `wheres[i][value][j]`, `orders[i][direction]`, `with[i]` and the other name lists with consecutive indices from 0,
 * `limit`, `page`, `offset` — straight into {@link QueryParams}, without the intermediate raw object of
 * `parseQueryString`, with the same checks (`whereFromFields`, `orderFromFields`, `parseName`, `parseInteger`).
 * It gives `undefined` for anything else — another key, a key sent twice, indices out of order, encoded brackets,
 * escapes that are not UTF-8, a value the checks refuse, a cap passed — and the caller then reads the query with
 * the general reader, from the start, which accepts or rejects it as it always did. So it never decides an answer
 * of its own: on what it accepts, it gives what the general reader gives (the same params and the same paths for
 * errors found later), as `spec/parse/fused-reader.spec.ts` checks against it and against `qs`.
 */
export function readClientQuery(input: string, settings: Required<ParseOptions>): QueryParams | undefined {
  if (settings.depth < 3) return undefined
  const text = queryOf(input)
  if (text.includes('%5') && ENCODED_BRACKET.test(text)) return undefined
  try {
    return read(text, settings)
  } catch (error) {
    if (error instanceof QueryParamsError) return undefined
    throw error
  }
}

function read(text: string, settings: Required<ParseOptions>): QueryParams | undefined {
  const reader = new ClientQueryReader(settings)
  const length = text.length
  let count = 0
  let start = 0
  while (start < length) {
    if (text.charCodeAt(start) === 38) {
      start++
      continue
    }
    if (++count > settings.parameterLimit) return undefined
    // The key is read from its first character; it ends where the client's form says.
    const keyEnd = reader.key(text, start)
    if (keyEnd === -1) return undefined
    let end = keyEnd
    let value: string | null | undefined = null
    if (keyEnd < length && text.charCodeAt(keyEnd) !== 38) {
      if (text.charCodeAt(keyEnd) !== 61) return undefined
      end = text.indexOf('&', keyEnd + 1)
      if (end === -1) end = length
      const sent = text.slice(keyEnd + 1, end)
      // As qs reads it, a `]=` in the value would end the key there (`a=b]=c` has the key `a=b]`).
      if (sent.includes(']=')) return undefined
      value = decodeComponent(sent)
    }
    if (value === undefined || !reader.take(value)) return undefined
    start = end + 1
  }
  return reader.finish()
}

/** The state of one read: the params so far, the where and the order being read, and what the last key named. */
class ClientQueryReader {
  private readonly params: QueryParams = {}
  private readonly source: ParamSource = { keys: {}, indices: {}, valueIndices: {} }
  private readonly settings: Required<ParseOptions>
  /** What the last key named: its kind, list index, value index (-1: none), field, name list, integer. */
  private kind = WHERE
  private index = 0
  private item = -1
  private field = 0
  private list = 0
  private integerName: 'limit' | 'page' | 'offset' = 'limit'
  // The where being read (`whereOpen`), field by field; `whereSeen` has a bit per field sent.
  private whereOpen = false
  private whereSeen = 0
  private column: RawValue = undefined
  private operator: RawValue = undefined
  private boolean: RawValue = undefined
  private value: RawValue = undefined
  private items: Array<string | null> | undefined = undefined
  // The order being read.
  private orderOpen = false
  private orderSeen = 0
  private orderColumn: RawValue = undefined
  private direction: RawValue = undefined

  constructor(settings: Required<ParseOptions>) {
    this.settings = settings
  }

  /**
   * Reads the key starting at `start` in the client's form and returns where it ends, or -1 for any other key. What
   * it names is kept for {@link take}.
   */
  key(text: string, start: number): number {
    switch (text.charCodeAt(start)) {
      case 119: // w
        if (text.startsWith('wheres[', start)) return this.listField(text, start + 7, WHERE, WHERE_FIELDS)
        return this.nameKey(text, start, 0)
      case 111: // o
        if (text.startsWith('orders[', start)) return this.listField(text, start + 7, ORDER, ORDER_FIELDS)
        return this.integerKey(text, start, 'offset')
      case 108: // l
        return this.integerKey(text, start, 'limit')
      case 112: // p
        return this.integerKey(text, start, 'page')
      case 115: // s
        return this.nameKey(text, start, 1)
      case 99: // c
        return this.nameKey(text, start, 2)
      case 100: // d
        return this.nameKey(text, start, 3)
      case 114: {
        // r
        const end = this.nameKey(text, start, 4)
        return end === -1 ? this.nameKey(text, start, 5) : end
      }
      default:
        return -1
    }
  }

  /** Takes the value of the key {@link key} read last; `false` when the query is not in the client's form. */
  take(value: string | null): boolean {
    switch (this.kind) {
      case WHERE:
        return this.where(value)
      case ORDER:
        return this.order(value)
      case NAME:
        return this.name(value)
      default:
        return this.integer(value)
    }
  }

  /** The params read, or `undefined` when a list is over its cap (the general reader then says so). */
  finish(): QueryParams | undefined {
    this.closeWhere()
    this.closeOrder()
    const { params, settings } = this
    if ((params.wheres?.length ?? 0) > settings.maxWheres || (params.orders?.length ?? 0) > settings.maxListItems)
      return undefined
    for (const key of ['columns', 'scopes', 'distinct'] as const)
      if ((params[key]?.length ?? 0) > settings.maxListItems) return undefined
    return attachSource(params, this.source)
  }

  /** Whether `key` may be first sent as `sent` (not already under another spelling), and records it. */
  private spelled(key: QueryParamKey, sent: string): boolean {
    const known = this.source.keys[key]
    if (known === undefined) this.source.keys[key] = sent
    return known === undefined || known === sent
  }

  /**
   * `<list>[i][field]` from `at` (just after `<list>[`), one of `fields`, or for a where `wheres[i][value][j]`; the
   * end of the key, or -1.
   */
  private listField(text: string, at: number, kind: number, fields: readonly string[]): number {
    const index = readIndex(text, at, text.length)
    if (index === -1) return -1
    const open = at + indexText(index).length + 1
    if (text.charCodeAt(open) !== 91) return -1
    this.kind = kind
    this.index = index
    this.item = -1
    // The fields of a list start with different letters: the first one picks the only field to compare.
    const first = text.charCodeAt(open + 1)
    for (let field = 0; field < fields.length; field++) {
      const name = fields[field] as string
      if (name.charCodeAt(0) !== first) continue
      if (!text.startsWith(name, open + 1)) return -1
      const close = open + 1 + name.length
      if (text.charCodeAt(close) !== 93) return -1
      this.field = field
      if (kind !== WHERE || field !== VALUE || text.charCodeAt(close + 1) !== 91) return close + 1
      const item = readIndex(text, close + 2, text.length)
      if (item === -1) return -1
      this.item = item
      return close + 2 + indexText(item).length + 1
    }
    return -1
  }

  /** One field of `wheres[this.index]`. */
  private where(value: string | null): boolean {
    let wheres = this.params.wheres
    if (wheres === undefined) {
      if (!this.spelled('wheres', 'wheres')) return false
      wheres = this.params.wheres = []
      this.source.indices.wheres = []
    }
    const next = wheres.length
    if (!this.whereOpen || this.index !== next) {
      if (this.index !== (this.whereOpen ? next + 1 : next)) return false
      this.closeWhere()
      this.whereOpen = true
    }
    const bit = 1 << this.field
    if (this.item !== -1) {
      if (this.items === undefined) {
        if ((this.whereSeen & bit) !== 0) return false
        this.whereSeen |= bit
        this.items = []
      }
      if (this.item !== this.items.length) return false
      this.items.push(value)
      return true
    }
    if ((this.whereSeen & bit) !== 0) return false
    this.whereSeen |= bit
    if (this.field === 0) this.column = value
    else if (this.field === 1) this.operator = value
    else if (this.field === VALUE) this.value = value
    else this.boolean = value
    return true
  }

  private closeWhere(): void {
    if (!this.whereOpen) return
    const wheres = this.params.wheres as WhereDescription[]
    const position = wheres.length
    const { where, valueIndices } = whereFromFields(
      this.column,
      this.operator,
      this.boolean,
      this.items ?? this.value,
      UNREAD,
      this.settings,
    )
    wheres.push(where)
    ;(this.source.indices.wheres as Array<string | null>).push(indexText(position))
    this.source.valueIndices[position] = valueIndices
    this.whereOpen = false
    this.whereSeen = 0
    this.column = this.operator = this.boolean = this.value = undefined
    this.items = undefined
  }

  /** One field of `orders[this.index]`. */
  private order(value: string | null): boolean {
    let orders = this.params.orders
    if (orders === undefined) {
      if (!this.spelled('orders', 'orders')) return false
      orders = this.params.orders = []
      this.source.indices.orders = []
    }
    const next = orders.length
    if (!this.orderOpen || this.index !== next) {
      if (this.index !== (this.orderOpen ? next + 1 : next)) return false
      this.closeOrder()
      this.orderOpen = true
    }
    const bit = 1 << this.field
    if ((this.orderSeen & bit) !== 0) return false
    this.orderSeen |= bit
    if (this.field === 0) this.orderColumn = value
    else this.direction = value
    return true
  }

  private closeOrder(): void {
    if (!this.orderOpen) return
    const orders = this.params.orders as Order[]
    ;(this.source.indices.orders as Array<string | null>).push(indexText(orders.length))
    orders.push(orderFromFields(this.orderColumn, this.direction, UNREAD))
    this.orderOpen = false
    this.orderSeen = 0
    this.orderColumn = this.direction = undefined
  }

  /** `<list>[i]` for the name list `NAME_LISTS[which]`: the end of the key, or -1. */
  private nameKey(text: string, start: number, which: number): number {
    const sent = (NAME_LISTS[which] as readonly [string, NameKey])[0]
    if (!text.startsWith(sent, start) || text.charCodeAt(start + sent.length) !== 91) return -1
    const at = start + sent.length + 1
    const index = readIndex(text, at, text.length)
    if (index === -1) return -1
    this.kind = NAME
    this.list = which
    this.index = index
    return at + indexText(index).length + 1
  }

  /** An entry of a name list, with `i` the next index of that list. */
  private name(value: string | null): boolean {
    const [sent, key] = NAME_LISTS[this.list] as readonly [string, NameKey]
    let names = this.params[key]
    if (names === undefined) {
      if (!this.spelled(key, sent)) return false
      names = this.params[key] = []
      this.source.indices[key] = []
    } else if (this.source.keys[key] !== sent) return false
    if (this.index !== names.length) return false
    names.push(parseName(value, UNREAD))
    ;(this.source.indices[key] as Array<string | null>).push(indexText(this.index))
    return true
  }

  /** `limit`, `page` or `offset` (`key`) as a whole key: its end, or -1. */
  private integerKey(text: string, start: number, key: 'limit' | 'page' | 'offset'): number {
    if (!text.startsWith(key, start)) return -1
    this.kind = INTEGER
    this.integerName = key
    return start + key.length
  }

  /** `limit`, `page` or `offset`, sent once, a whole number (of at least 1 but for `offset`). */
  private integer(value: string | null): boolean {
    const key = this.integerName
    if (this.source.keys[key] !== undefined) return false
    this.source.keys[key] = key
    this.params[key] = parseInteger(value, UNREAD, key === 'offset' ? 0 : 1)
    return true
  }
}
