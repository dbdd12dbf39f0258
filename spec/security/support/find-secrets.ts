import { demoData } from '../../../fixtures/data.ts'

/** The stored password hashes of the demo users: none may ever reach a client. */
export const PASSWORD_HASHES: readonly string[] = demoData.users.map((user) => user.password)

/**
 * Where a response leaks the hidden column: every path (`[0].author.password`) of a `password` key,
 * and of a text value containing a stored hash. Empty when nothing leaks.
 */
export function findSecrets(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return PASSWORD_HASHES.some((hash) => value.includes(hash)) ? [path] : []
  if (typeof value !== 'object' || value === null) return []
  const found: string[] = []
  for (const [key, child] of Object.entries(value)) {
    const childPath = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`
    if (key.toLowerCase().includes('password')) found.push(childPath)
    found.push(...findSecrets(child, childPath))
  }
  return found
}
