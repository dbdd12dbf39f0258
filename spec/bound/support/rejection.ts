/** How `promise` rejected: its error, and the milliseconds it took; throws when it resolves. */
export async function rejection(promise: PromiseLike<unknown>): Promise<{ error: unknown; ms: number }> {
  const start = Date.now()
  try {
    await promise
  } catch (error) {
    return { error, ms: Date.now() - start }
  }
  throw new Error('expected the promise to reject')
}
