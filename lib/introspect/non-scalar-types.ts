const BYTES = /^(bytea|(tiny|medium|long)?blob|binary|varbinary)$/
const GEOMETRY = /^(geo(metry|graphy|metrycollection)|(multi)?(point|linestring|polygon)|box|circle|line|lseg|path)$/

/**
 * Whether a database type (lower case, without length; see `SchemaColumn.dataType`) reads as something no map type
 * is: an array (PostgreSQL `text[]`, `integer[]`), bytes (a Buffer: `bytea`, `BLOB`, `VARBINARY`), or a geometry (an
 * object). A column of such a type declared `string` or any other map type is an error of `checkRelationMap`.
 *
 * @example
 * yieldsNonScalar('text[]') // true
 * yieldsNonScalar('json')   // false: the map's `json` type holds it
 */
export function yieldsNonScalar(dataType: string): boolean {
  return dataType.endsWith('[]') || BYTES.test(dataType) || GEOMETRY.test(dataType)
}
