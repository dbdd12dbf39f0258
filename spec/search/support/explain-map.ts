import { containsMap } from './searchable-map.ts'

/** {@link containsMap} as the `explain` command loads a map: the export named `relationMap`. */
export const relationMap = containsMap
