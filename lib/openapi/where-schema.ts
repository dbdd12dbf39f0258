import type { Operator } from '../query-params.ts'
import type { JsonSchema } from './json-schema.ts'

/** Caps on one `wheres` entry's value. */
export interface WhereValueCaps {
  maxInValues: number
  maxValueLength: number
  maxLikeWildcards: number
}

/** Columns (every name a client may send for them) that take the same operators and values. */
export interface FilterGroup {
  names: string[]
  operators: readonly Operator[]
  value: JsonSchema
}

// The text `null` is a null value: a 400 with an operator that takes none.
const NULL_TEXT: JsonSchema = { const: 'null' }
const BOOLEAN: JsonSchema = { type: 'string', enum: ['and', 'or'], default: 'and' }

/**
 * A `like` pattern of at most `max` wildcards (`%`, `_` not escaped by a backslash) and `length` characters.
 * A lone backslash at the end matches a backslash.
 */
export function likeSchema(length: number, max: number): JsonSchema {
  const plain = '(?:[^%_\\\\\\u0000]|\\\\[^\\u0000])*'
  return { type: 'string', maxLength: length, pattern: `^${plain}(?:[%_]${plain}){0,${max}}\\\\?$` }
}

/**
 * The JSON Schema of one `wheres` entry: one branch per group of columns and operator shape. `=` and `!=`
 * take a value or `null` (`IS [NOT] NULL`); `<`, `<=`, `>`, `>=` a value; `like` a pattern; `in` and `notIn`
 * a list (items may be `null`; an empty list is left out by the encoder, so `value` may be missing);
 * `between` and `notBetween` exactly two values.
 */
export function whereSchema(groups: readonly FilterGroup[], caps: WhereValueCaps): JsonSchema {
  const branches: JsonSchema[] = []
  for (const group of groups) {
    const column: JsonSchema = { type: 'string', enum: group.names }
    const shapes: Array<[readonly Operator[], JsonSchema | undefined]> = [
      [['=', '!='], { anyOf: [group.value, { type: 'null' }] }],
      [['<', '<=', '>', '>='], { ...group.value, not: NULL_TEXT }],
      [['like'], { ...likeSchema(caps.maxValueLength, caps.maxLikeWildcards), not: NULL_TEXT }],
      [['in', 'notIn'], undefined],
      [['between', 'notBetween'], { type: 'array', items: group.value, minItems: 2, maxItems: 2 }],
    ]
    for (const [operators, value] of shapes) {
      const allowed = operators.filter((operator) => group.operators.includes(operator))
      if (allowed.length === 0) continue
      const list: JsonSchema = {
        type: 'array',
        items: { anyOf: [group.value, { type: 'null' }] },
        maxItems: caps.maxInValues,
      }
      branches.push({
        title: `${allowed.join(' ')} on ${group.names.length} columns`,
        type: 'object',
        properties: { column, operator: { type: 'string', enum: allowed }, value: value ?? list, boolean: BOOLEAN },
        required: value === undefined ? ['column', 'operator'] : ['column', 'operator', 'value'],
        additionalProperties: false,
      })
    }
  }
  return branches.length === 0
    ? { not: {}, description: 'No column of this resource can be filtered.' }
    : { anyOf: branches }
}
