/**
 * The candidate `name` was most likely meant to be: one that differs only in case, else the nearest by
 * edit distance (a swap of two neighbouring letters counts once, so `foriegnKey` finds `foreignKey`), if
 * it is close enough to be a typo. `undefined` when nothing is close.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase()
  const limit = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3
  let best: string | undefined
  let bestDistance = limit + 1
  for (const candidate of candidates) {
    if (candidate === name) continue
    if (candidate.toLowerCase() === lower) return candidate
    const distance = editDistance(lower, candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity
  let previous2: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let distance = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        distance = Math.min(distance, (previous2[j - 2] ?? 0) + 1)
      current[j] = distance
    }
    previous2 = previous
    previous = current
  }
  return previous[b.length] ?? Infinity
}
