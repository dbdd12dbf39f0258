import { testDatabases } from '../../support/databases.ts'

// Prints the engines the harness would run on, for a test that sets the environment of a child process.
// Exits at once: nothing connects, and PGlite's runtime would otherwise keep the process alive.
console.log(JSON.stringify(testDatabases().map((database) => database.engine)))
process.exit(0)
