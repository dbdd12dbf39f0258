import type { Knex } from 'knex'
import { dialectOf } from '../../../lib/dialect/dialect-of.ts'

/**
 * Adds to a rentals schema (`fixtures/rentals/`) the table a Pagila payment table is: `rental_charge`, whose foreign
 * key into `rental` spans the partition key, `(rental_id, rental_date) references rental (rental_id, rental_date)`
 * (on PostgreSQL `rental` is partitioned by range of `rental_date`, so its key and every key into it span the date).
 * Its rows are copied from `rental` with SQL, so the key columns hold exactly what `rental` holds on every database
 * (epoch milliseconds on SQLite): none for a rental whose id is a multiple of 3 (unless even), one for most, up to
 * three for others; charge ids are `rental_id * 10 + n`.
 */
export async function createRentalCharges(knex: Knex): Promise<void> {
  const engine = dialectOf(knex.client).name
  const ts = { sqlite: 'timestamp', postgres: 'timestamp without time zone', mysql: 'datetime' }[engine]
  await knex.raw(
    `create table rental_charge (charge_id integer not null primary key, rental_id integer not null, ` +
      `rental_date ${ts} not null, amount numeric(5,2) not null, kind varchar(10) not null, ` +
      'foreign key (rental_id, rental_date) references rental (rental_id, rental_date))',
  )
  await knex.raw(
    'insert into rental_charge (charge_id, rental_id, rental_date, amount, kind) ' +
      `select rental_id * 10 + 1, rental_id, rental_date, (rental_id % 7) + 0.5, 'rent' from rental where rental_id % 3 <> 0 ` +
      `union all select rental_id * 10 + 2, rental_id, rental_date, (rental_id % 5) + 1.25, 'late' from rental where rental_id % 2 = 0 ` +
      `union all select rental_id * 10 + 3, rental_id, rental_date, 9.99, 'damage' from rental where rental_id % 5 = 0`,
  )
}
