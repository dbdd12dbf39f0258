import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { OpenApiDocument } from '../../../lib/openapi.ts'

/**
 * JSON Schema 2020-12 validators (ajv, with formats) of a document's component schemas, by name: the dialect of
 * OpenAPI 3.1. Extension keywords (`x-kqp-…`) are allowed.
 */
export function componentValidators(document: OpenApiDocument): (name: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: false, unicodeRegExp: true })
  addFormats.default(ajv)
  ajv.addSchema({ $id: 'doc', components: structuredClone(document.components) }, 'doc')
  const cache = new Map<string, ValidateFunction>()
  return (name) => {
    let validate = cache.get(name)
    if (validate === undefined) {
      const found = ajv.getSchema(`doc#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      if (found === undefined) throw new Error(`no schema ${name}`)
      cache.set(name, (validate = found))
    }
    return validate
  }
}
