/** Options of `loadWithTree`. */
export interface EagerLoadOptions {
  /** Most key values in one `IN (…)` list; default the dialect's `maxInBindings`. */
  chunkSize?: number
}
