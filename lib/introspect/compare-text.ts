/** Orders strings by code unit, the same on every machine and locale (unlike `localeCompare`). */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0
}
