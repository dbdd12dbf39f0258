/** `createdAt` → `created_at`; already snake_case names are unchanged. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
}
