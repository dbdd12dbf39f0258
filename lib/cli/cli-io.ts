/** Where the CLI writes: `out` for results (stdout), `err` for problems (stderr). Each call is one line or more. */
export interface CliIo {
  out(text: string): void
  err(text: string): void
}
