// Type tests, compiled by `npm run typecheck` and never run: the record types say what rows carry at runtime,
// the JSON value of each declared column type (spec/normalize/cross-database-json.spec.ts checks the runtime side).
import knex from 'knex'
import {
  type JsonColumnValue,
  applyQueryParams,
  defineRelationMap,
  loadRelations,
  paginate,
  parseQueryParams,
  type ColumnRecord,
  type ColumnValues,
  type TableRecord,
} from '../../lib/index.ts'
import type { Expect, Equal } from './expect-type.ts'

const map = defineRelationMap({
  orders: {
    columns: {
      id: 'bigint',
      label: 'string',
      quantity: 'integer',
      weight: 'number',
      paid: { type: 'boolean', nullable: false },
      day: 'date',
      at: { type: 'datetime', nullable: false, storage: 'epoch_ms' },
      total: { type: 'decimal', nullable: false },
      big: 'bigint',
    },
    relations: { lines: { type: 'hasMany', table: 'lines', foreignKey: 'order_id' } },
  },
  lines: { columns: { id: 'integer', order_id: 'bigint', price: 'decimal', shipped_on: 'date', options: 'json' } },
})

type _values = Expect<
  Equal<
    ColumnValues,
    {
      string: string
      integer: number
      number: number
      boolean: boolean
      date: string
      datetime: string
      bigint: string
      decimal: string
      json: JsonColumnValue
    }
  >
>
type _orders = Expect<
  Equal<
    ColumnRecord<typeof map, 'orders'>,
    {
      id: string
      label: string | null
      quantity: number | null
      weight: number | null
      paid: boolean
      day: string | null
      at: string
      total: string
      big: string | null
    }
  >
>
type _lines = Expect<
  Equal<
    ColumnRecord<typeof map, 'lines'>,
    {
      id: number
      order_id: string | null
      price: string | null
      shipped_on: string | null
      options: JsonColumnValue | null
    }
  >
>

type Order = TableRecord<typeof map, 'orders'>
const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })

export async function jsonValues(): Promise<void> {
  const orders = await applyQueryParams(db<Order>('orders'), parseQueryParams('with[0]=lines'), map)
  const order = orders[0]
  if (order === undefined) return
  const total: string = order.total
  const paid: boolean = order.paid
  const at: string = order.at
  void [total, paid, at]
  // @ts-expect-error a decimal comes back as exact text, never a number
  const asNumber: number = order.total
  // @ts-expect-error a bigint comes back as text, never a number
  const id: number = order.id
  // @ts-expect-error a boolean is true/false, never 0/1
  const flag: 0 | 1 = order.paid
  // @ts-expect-error a datetime is ISO text, never a Date
  const when: Date = order.at
  // @ts-expect-error a nullable date may be null
  const day: string = order.day
  void [asNumber, id, flag, when, day]

  const price: string | null | undefined = order.lines?.[0]?.price
  // @ts-expect-error the loaded lines' prices are text (or null), never numbers
  const priceNumber: number | undefined = order.lines?.[0]?.price
  void [price, priceNumber]

  const page = await paginate(applyQueryParams(db<Order>('orders'), parseQueryParams('page=1'), map))
  const first: string | undefined = page.data[0]?.total
  const total2: number | undefined = page.meta.total
  // @ts-expect-error paginate's data keeps the record type: a decimal is text
  const wrong: number | undefined = page.data[0]?.total
  void [first, total2, wrong]

  const rows = await db<{ id: string }>('orders').select('id')
  const loaded = await loadRelations(db, 'orders', rows, ['lines'], map)
  type _loaded = Expect<Equal<NonNullable<(typeof loaded)[number]['lines']>[number]['shipped_on'], string | null>>
}
