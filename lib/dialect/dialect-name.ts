/** The databases the library writes SQL for; also what the `dialect` option declares. */
export type DialectName = 'sqlite' | 'postgres' | 'mysql'
