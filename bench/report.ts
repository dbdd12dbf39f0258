import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import type { Machine } from './machine.ts'
import type { ExplainRecord } from './relation-filters.ts'
import type { BenchResult, Measured } from './result.ts'

/** Everything one run of the bench produced. */
export interface BenchReport {
  date: string
  command: string
  machine: Machine
  databases: string[]
  /** Figures or dialects not run, and why. */
  skipped: string[]
  /** Figures that failed, with the error. */
  failed: string[]
  results: BenchResult[]
  explains: ExplainRecord[]
  durationSeconds: number
  /** When some figures' rows come from earlier runs (`--only`): which, and from which run. */
  earlier?: string[]
}

const figureNumber = (figure: string): number => Number(figure.split('.')[0])

/** The report of `results.json`, if there is one. */
export function readReport(file: string): BenchReport | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BenchReport) : undefined
}

/**
 * `current` (a run of the figures in `only`) merged into `previous`: the rows and plans of those figures
 * are replaced, the others kept and said to be from the earlier run.
 */
export function mergeReports(previous: BenchReport, current: BenchReport, only: ReadonlySet<number>): BenchReport {
  const kept = previous.results.filter((row) => !only.has(figureNumber(row.figure)))
  const keptFigures = [...new Set(kept.map((row) => figureNumber(row.figure)))].sort((a, b) => a - b)
  const results = [...kept, ...current.results].sort((a, b) => figureNumber(a.figure) - figureNumber(b.figure))
  const explains = [
    ...previous.explains.filter((record) => !only.has(figureNumber(record.figure ?? '3.'))),
    ...current.explains,
  ].sort((a, b) => figureNumber(a.figure ?? '3.') - figureNumber(b.figure ?? '3.'))
  const earlier = (previous.earlier ?? []).flatMap((line) => {
    const [figures = '', ...rest] = line.split(': ')
    const still = figures.split(', ').filter((figure) => keptFigures.includes(Number(figure.replace('figure ', ''))))
    return still.length === 0 ? [] : [[still.join(', '), ...rest].join(': ')]
  })
  const fromPrevious = keptFigures.filter(
    (figure) => !earlier.some((line) => new RegExp(`\\bfigure ${figure}\\b`).test(line)),
  )
  if (fromPrevious.length > 0) {
    earlier.push(
      `${fromPrevious.map((figure) => `figure ${figure}`).join(', ')}: from \`${previous.command}\` on ${previous.date} (machine load ${previous.machine.loadAverage.map((value) => value.toFixed(2)).join(' / ')})`,
    )
  }
  return {
    ...current,
    databases: [...new Set([...previous.databases, ...current.databases])],
    results,
    explains,
    earlier,
  }
}

function time(ms: number): string {
  if (!Number.isFinite(ms)) return '–'
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`
  if (ms < 100) return `${ms.toFixed(2)} ms`
  return `${ms.toFixed(0)} ms`
}

function cell(measure: Measured, unit: BenchResult['unit']): string {
  if (unit === 'req/s') return `${measure.median.toFixed(0)} req/s (p99 ${measure.p95.toFixed(0)} ms)`
  return `${time(measure.median)} (p95 ${time(measure.p95)})`
}

function target(row: BenchResult): string {
  if (row.target === undefined) return ''
  const op = { '<=': '≤', '<': '<', '>=': '≥' }[row.target.op]
  return `${op} ${row.target.value} ${row.met === true ? '✅' : '❌'}`
}

function queries(row: BenchResult): string {
  return row.ours.queries === undefined ? '' : `${row.ours.queries} / ${row.baseline.queries ?? '?'}`
}

/** The results as rows of cells: figure, case, database, ours, baseline, ratio, target, queries. */
function rows(report: BenchReport): string[][] {
  return report.results.map((row) => [
    row.figure,
    row.name,
    row.dialect === 'none' ? '–' : row.dialect,
    `${cell(row.ours, row.unit)} — ${row.ours.label}`,
    `${cell(row.baseline, row.unit)} — ${row.baseline.label}`,
    `×${row.ratio.toFixed(3)}`,
    target(row),
    queries(row),
  ])
}

const HEADER = ['Figure', 'Case', 'DB', 'Ours', 'Baseline', 'Ratio', 'Target', 'Queries (ours / baseline)']

/** A compact table for the terminal. */
export function terminalTable(report: BenchReport): string {
  const body = report.results.map((row) => [
    row.figure.replace(/^(\d+)\. .*/, '$1'),
    row.name.length > 58 ? `${row.name.slice(0, 57)}…` : row.name,
    row.dialect === 'none' ? '–' : row.dialect,
    cell(row.ours, row.unit),
    `${cell(row.baseline, row.unit)} ${row.baseline.label.length > 34 ? `${row.baseline.label.slice(0, 33)}…` : row.baseline.label}`,
    `×${row.ratio.toFixed(3)}`,
    target(row),
    queries(row),
  ])
  const header = ['#', 'Case', 'DB', 'Ours', 'Baseline', 'Ratio', 'Target', 'Queries']
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((line) => (line[column] ?? '').length)),
  )
  const format = (line: string[]): string => line.map((value, column) => value.padEnd(widths[column] ?? 0)).join('  ')
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(format)].join('\n')
}

/** The results as a Markdown table. */
export function markdownTable(report: BenchReport): string {
  const escapeCell = (value: string): string => value.replace(/\|/g, '\\|')
  return [
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...rows(report).map((line) => `| ${line.map(escapeCell).join(' | ')} |`),
  ].join('\n')
}

function markdownSection(report: BenchReport): string {
  const m = report.machine
  const lines = [
    `Generated by \`${report.command}\` on ${report.date} in ${report.durationSeconds.toFixed(0)} s.`,
    ...(report.earlier === undefined || report.earlier.length === 0
      ? []
      : ['', 'Rows kept from earlier runs:', ...report.earlier.map((line) => `- ${line}`)]),
    '',
    `- Machine: ${m.cpus} CPUs (\`nproc\`; ${m.cpuModel}), ${m.memoryGiB} GiB memory, ${m.platform}; load average at start ${m.loadAverage.map((value) => value.toFixed(2)).join(' / ')}.`,
    `- Node.js ${m.node}; ${Object.entries(m.packages)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
    `- Databases: ${report.databases.join('; ')}.`,
    ...report.skipped.map((line) => `- Skipped: ${line}`),
    ...report.failed.map((line) => `- **Failed**: ${line}`),
    '',
    markdownTable(report),
    '',
    '<details><summary>Query plans of figures 3, 6 and 13 (EXPLAIN)</summary>',
    '',
    ...report.explains.flatMap((record) => [
      `#### ${(record.figure ?? '3. relation filters').replace(/^(\d+)\..*/, 'figure $1')} — ${record.dialect} — ${record.name} — ${record.form}`,
      '',
      '```sql',
      record.sql,
      '```',
      '```',
      record.plan,
      '```',
      '',
    ]),
    '</details>',
  ]
  return lines.join('\n')
}

const START = '<!-- bench:results:start -->'
const END = '<!-- bench:results:end -->'

/**
 * Writes `results.json` and replaces the generated part of `BENCHMARKS.md` (between its
 * `bench:results` markers), leaving the hand-written analysis around it alone.
 */
export function writeReport(report: BenchReport, resultsFile: string, markdownFile: string): void {
  writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`)
  const section = `${START}\n${markdownSection(report)}\n${END}`
  const existing = existsSync(markdownFile) ? readFileSync(markdownFile, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`
  const start = existing.indexOf(START)
  const end = existing.indexOf(END)
  const updated =
    start === -1 || end === -1
      ? `${existing.trimEnd()}\n\n${section}\n`
      : `${existing.slice(0, start)}${section}${existing.slice(end + END.length)}`
  writeFileSync(markdownFile, updated)
}
