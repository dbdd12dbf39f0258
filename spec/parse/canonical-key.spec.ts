import { expect } from 'chai'
import fc from 'fast-check'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { canonicalKey } from '../../lib/parse/canonical-key.ts'
import { splitKey } from '../../lib/parse/split-key.ts'

/**
 * The fast reader of the reference client's keys must agree with the general one: whenever it reads a
 * key, its segments are exactly `splitKey`'s, and two keys share a parent id exactly when they share a
 * parent path. Keys are generated in and around the client's grammar (leading zeros, long indices,
 * unknown fields, escapes, extra segments) under every depth.
 */

const SEED = 20_261_121

const name = fc.constantFrom(
  'wheres',
  'orders',
  'with',
  'scopes',
  'columns',
  'distinct',
  'relations_exists',
  'relationsExists',
  'limit',
  'wherez',
  'w',
)
const segment = fc.oneof(
  fc
    .constantFrom(
      '0',
      '3',
      '12',
      '999999',
      '1234567',
      '01',
      'column',
      'operator',
      'value',
      'boolean',
      'direction',
      'valueOf',
      '',
    )
    .map((text) => `[${text}]`),
  fc.constantFrom('[', ']', '%5B', '+', '%20', 'x', '[0', '0]'),
)
const index = fc.constantFrom('0', '1', '3', '10', '01')
/** Keys mostly in the client's own forms, for the parent ids. */
const clientKey = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('wheres', 'orders'),
      index,
      fc.constantFrom('column', 'operator', 'value', 'boolean', 'direction'),
    )
    .map(([n, i, f]) => `${n}[${i}][${f}]`),
  fc.tuple(index, index).map(([i, j]) => `wheres[${i}][value][${j}]`),
  fc.tuple(fc.constantFrom('with', 'scopes', 'relations_exists'), index).map(([n, i]) => `${n}[${i}]`),
)
const keyArbitrary = fc.oneof(
  clientKey,
  fc.tuple(name, fc.array(segment, { maxLength: 4 })).map(([head, rest]) => head + rest.join('')),
)
const depthArbitrary = fc.integer({ min: 0, max: 5 })

function general(key: string, depth: number): string[] | undefined {
  try {
    return splitKey(key, depth)
  } catch (error) {
    if (error instanceof QueryParamsError) return undefined
    throw error
  }
}

describe('parse: the reference client key reader', () => {
  it('reads the keys the client sends, with shared segment strings', () => {
    expect(canonicalKey('wheres[12][operator]', 0, 20, 5)?.segments).to.deep.equal(['wheres', '12', 'operator'])
    expect(canonicalKey('wheres[3][value][10]', 0, 20, 5)?.segments).to.deep.equal(['wheres', '3', 'value', '10'])
    expect(canonicalKey('orders[1][direction]', 0, 20, 5)?.segments).to.deep.equal(['orders', '1', 'direction'])
    expect(canonicalKey('relations_exists[0]', 0, 19, 5)?.segments).to.deep.equal(['relations_exists', '0'])
    expect(canonicalKey('a&with[4]=x', 2, 9, 5)?.segments).to.deep.equal(['with', '4'])
  })

  it('leaves every other key to the general reader', () => {
    for (const key of [
      'wheres[01][column]',
      'wheres[0][valueOf]',
      'wheres[0][column][0]',
      'wheres%5B0%5D[column]',
      'limit',
      'with[]',
      'with[1234567]',
    ]) {
      expect(canonicalKey(key, 0, key.length, 5), key).to.equal(undefined)
    }
    expect(canonicalKey('wheres[0][value][1]', 0, 19, 2), 'deeper than depth').to.equal(undefined)
  })

  it('agrees with splitKey on every key it reads, under every depth (seeded, 4000 keys)', () => {
    fc.assert(
      fc.property(keyArbitrary, depthArbitrary, (key, depth) => {
        const fast = canonicalKey(key, 0, key.length, depth)
        if (fast !== undefined) expect(fast.segments).to.deep.equal(general(key, depth))
      }),
      { seed: SEED, numRuns: 4000 },
    )
  })

  it('gives two keys the same parent id exactly when their parent paths are equal (seeded, 4000 pairs)', () => {
    const parentPath = (key: string): string => key.slice(0, key.lastIndexOf('['))
    fc.assert(
      fc.property(clientKey, clientKey, (a, b) => {
        const first = canonicalKey(a, 0, a.length, 5)
        const second = canonicalKey(b, 0, b.length, 5)
        if (first !== undefined && second !== undefined)
          expect(first.parent === second.parent, `${a} / ${b}`).to.equal(parentPath(a) === parentPath(b))
      }),
      { seed: SEED, numRuns: 4000 },
    )
  })
})
