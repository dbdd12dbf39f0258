import { APPLY_DEFAULTS, PARSE_DEFAULTS, withDefaults } from '../options.ts'
import type { OpenApiOptions, OpenApiPagination, OpenApiResource } from './options.ts'

/** Every setting that shapes what one route accepts, its defaults filled in. */
export interface RouteSettings {
  readonly maxWheres: number
  readonly maxInValues: number
  readonly maxValueLength: number
  readonly maxListItems: number
  readonly maxLikeWildcards: number
  readonly strict: boolean
  readonly defaultLimit: number
  readonly maxLimit: number
  readonly maxWithDepth: number
  readonly maxWith: number
  readonly maxRelationDepth: number
  readonly maxRelationFilters: number
  readonly maxRelationOrders: number
  readonly maxSearchLength: number
  readonly maxSearchWords: number
  readonly relationPathDepth: number
  readonly pagination: OpenApiPagination
  readonly count: boolean | 'estimated'
}

/** A number option read by name: the `search` caps are options of a later version of `ParseOptions`. */
function numberOption(options: object, name: string): number | undefined {
  const value = name in options ? (options as Record<string, unknown>)[name] : undefined
  return typeof value === 'number' ? value : undefined
}

/** The settings of a resource's route: its options over the library's defaults (`APPLY_DEFAULTS`, `PARSE_DEFAULTS`). */
export function routeSettings(resource: OpenApiResource, options: OpenApiOptions): RouteSettings {
  const given = resource.options ?? {}
  const parse = withDefaults(PARSE_DEFAULTS, given)
  const apply = withDefaults(APPLY_DEFAULTS, given)
  return {
    maxWheres: parse.maxWheres,
    maxInValues: parse.maxInValues,
    maxValueLength: parse.maxValueLength,
    maxListItems: parse.maxListItems,
    maxLikeWildcards: parse.maxLikeWildcards,
    strict: parse.strict,
    defaultLimit: apply.defaultLimit,
    maxLimit: apply.maxLimit,
    maxWithDepth: apply.maxWithDepth,
    maxWith: apply.maxWith,
    maxRelationDepth: apply.maxRelationDepth,
    maxRelationFilters: apply.maxRelationFilters,
    maxRelationOrders: apply.maxRelationOrders,
    maxSearchLength: numberOption(given, 'maxSearchLength') ?? numberOption(PARSE_DEFAULTS, 'maxSearchLength') ?? 200,
    maxSearchWords: numberOption(given, 'maxSearchWords') ?? numberOption(PARSE_DEFAULTS, 'maxSearchWords') ?? 10,
    relationPathDepth: options.relationPathDepth ?? 2,
    pagination: resource.pagination ?? 'page',
    count: given.count ?? true,
  }
}
