import type { Knex } from 'knex'

interface PoolCounts {
  numUsed(): number
  numPendingAcquires(): number
}

const hasCounts = (pool: unknown): pool is PoolCounts =>
  typeof pool === 'object' && pool !== null && 'numUsed' in pool && 'numPendingAcquires' in pool

/**
 * Waits until no connection of `knex`'s pool is in use or awaited — the requests a load generator left
 * behind when it stopped have finished — or `limitMs` passed. Resolves to whether the pool went idle.
 */
export async function waitForIdlePool(knex: Knex, limitMs = 10_000): Promise<boolean> {
  const pool: unknown = knex.client.pool
  if (!hasCounts(pool)) return true
  const started = performance.now()
  while (pool.numUsed() > 0 || pool.numPendingAcquires() > 0) {
    if (performance.now() - started > limitMs) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return true
}
