/**
 * Run as `node --expose-gc --import tsx spec/memory/support/retained-heap.ts <mode>`: parses many requests
 * and prints the heap they leave behind after a full GC, in bytes. Modes: `bodies` (1,000 bodies of 1 MB,
 * each starting with a distinct unknown 13-character key), `indices` (10,000 query strings with distinct list
 * indices of up to 6 digits), `keys` (1,000 bodies of 1 MB whose only key is a distinct 200-character
 * `wheres[…]` key).
 */
import { parseQueryParams } from '../../../lib/index.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc')
const mode = process.argv[2]
const filler = 'v'.repeat(1 << 20)

function parse(text: string): void {
  try {
    parseQueryParams(text)
  } catch {
    // A rejected request is fine here: only what it leaves in memory counts.
  }
}

gc()
const before = process.memoryUsage().heapUsed
for (let i = 0; i < (mode === 'indices' ? 10_000 : 1000); i++) {
  if (mode === 'bodies') parse(`u${String(i).padStart(12, '0')}=1&z=${filler}`)
  else if (mode === 'indices')
    parse(`with[${990_000 + i}]=posts&wheres[${980_000 + i}][column]=id&orders[${970_000 + i}][column]=id`)
  else if (mode === 'keys') parse(`wheres[0][${String(i).padStart(190, 'k')}]=${filler}`)
  else throw new Error(`unknown mode ${String(mode)}`)
}
gc()
gc()
console.log(String(process.memoryUsage().heapUsed - before))
