import type { Row } from '../normalize/row-values.ts'

/** Related rows of one table, as attached to their parents, before nested loading and stripping. */
export interface LoadedBatch {
  table: string
  /** The distinct related row objects attached to at least one parent. */
  rows: Row[]
  /** Columns selected only for matching or nested loading, to delete when loading is done. */
  extra: string[]
}
