import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const script = fileURLToPath(new URL('./support/retained-heap.ts', import.meta.url))
const MB = 2 ** 20

/** The heap `mode` leaves behind after a full GC, measured in a fresh `node --expose-gc`. */
async function retained(mode: string): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', script, mode], {
    maxBuffer: 1 << 16,
  })
  return Number(stdout.trim())
}

describe('nothing a request sends stays in memory after it (node --expose-gc)', () => {
  it('1,000 bodies of 1 MB, each starting with a distinct unknown key, leave under 3 MB behind (the key cache holds copies)', async () => {
    expect(await retained('bodies')).to.be.below(3 * MB)
  })

  it('1,000 bodies of 1 MB with distinct 200-character keys leave under 3 MB behind (long keys are not remembered)', async () => {
    expect(await retained('keys')).to.be.below(3 * MB)
  })

  it('10,000 requests with distinct large list indices leave under 0.5 MB behind (only small indices share their text)', async () => {
    expect(await retained('indices')).to.be.below(0.5 * MB)
  })
})
