import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { BenchDialect } from '../data/bench-servers.ts'
import { result, type BenchResult, type Measured } from '../result.ts'
import { WORST_CASE_REQUESTS, type WorstCaseRequest } from './worst-case-requests.ts'

/** `main` before issue 18 (bounded memory): the code the "before" column runs. */
export const BEFORE_COMMIT = '9aec7d4'
/** Each measurement's process gets this much old-space heap: past it, V8 aborts, as a server would. */
const HEAP_LIMIT_MB = 3072
const TIMEOUT_MS = 180_000

const repository = fileURLToPath(new URL('../../', import.meta.url))
const child = fileURLToPath(new URL('./worst-case-child.ts', import.meta.url))

/** What one measurement process reported. */
interface Sample {
  outcome: string
  ms: number
  peakRssMB: number
  peakHeapMB: number
  bodyMB?: number
  retainedMB?: number
}

/** The library as it was at {@link BEFORE_COMMIT}, extracted once into `bench/.before/` (git-ignored). */
function beforeLibrary(): string {
  const target = fileURLToPath(new URL(`../.before/${BEFORE_COMMIT}/`, import.meta.url))
  if (!existsSync(`${target}lib/index.ts`)) {
    mkdirSync(target, { recursive: true })
    execFileSync('sh', ['-c', `git -C "$1" archive ${BEFORE_COMMIT} lib | tar -x -C "$2"`, 'sh', repository, target])
  }
  return `${target}lib`
}

async function measure(
  lib: string,
  request: WorstCaseRequest,
  dialect: BenchDialect | 'none',
  connection: string,
  before: boolean,
): Promise<Sample> {
  const args = [
    '--expose-gc',
    `--max-old-space-size=${HEAP_LIMIT_MB}`,
    '--import',
    'tsx',
    child,
    lib,
    request.name,
    dialect,
    connection,
    before ? 'before' : 'after',
  ]
  const started = performance.now()
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, {
      cwd: repository,
      timeout: TIMEOUT_MS,
      maxBuffer: 1 << 20,
    })
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Sample
  } catch (error) {
    const failed = error as { signal?: string; stderr?: string; killed?: boolean }
    const fatal = /FATAL ERROR: [^\n]*/.exec(failed.stderr ?? '')?.[0]
    const outcome =
      failed.killed === true
        ? `no answer in ${TIMEOUT_MS / 1000} s`
        : fatal !== undefined
          ? `process died: ${fatal.slice(0, 60)}`
          : `process died (${failed.signal ?? 'exit'})`
    return { outcome, ms: performance.now() - started, peakRssMB: Number.NaN, peakHeapMB: Number.NaN }
  }
}

const mb = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value)
    ? '?'
    : `${value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en')} MB`

function describe(sample: Sample, which: string): string {
  const size =
    sample.retainedMB !== undefined
      ? `, retained ${mb(sample.retainedMB)}`
      : sample.bodyMB !== undefined
        ? `, body ${mb(sample.bodyMB)}`
        : ''
  return `${which}: ${sample.outcome}; peak RSS ${mb(sample.peakRssMB)}, heap ${mb(sample.peakHeapMB)}${size}`
}

function measured(sample: Sample, label: string): Measured {
  return { label, median: sample.ms, p95: sample.ms, samples: 1 }
}

/**
 * Figure 8: the most memory-hungry valid requests under the default options, each in a process of its own
 * (peak RSS, peak heap, time, outcome), with this checkout's library ("after") and with the library before
 * issue 18 ("before", {@link BEFORE_COMMIT}), one after the other. `connection` is the scale data set: its
 * SQLite file or its server URL. The body case needs no database and runs with `dialect` `none`.
 */
export async function worstCaseMemory(
  dialect: BenchDialect | 'none',
  connection: string,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const before = beforeLibrary()
  const after = fileURLToPath(new URL('../../lib', import.meta.url))
  const results: BenchResult[] = []
  for (const request of WORST_CASE_REQUESTS) {
    if ((request.bodies !== undefined) !== (dialect === 'none')) continue
    const old = await measure(before, request, dialect, connection, true)
    const now = await measure(after, request, dialect, connection, false)
    log(
      `  ${request.label}: ${describe(old, 'before')} in ${(old.ms / 1000).toFixed(1)} s; ${describe(now, 'after')} in ${(now.ms / 1000).toFixed(1)} s`,
    )
    results.push(
      result({
        figure: '8. worst-case memory',
        name: request.label,
        dialect,
        unit: 'ms',
        ours: measured(now, describe(now, 'after')),
        baseline: measured(old, describe(old, `before (${BEFORE_COMMIT})`)),
        ratio: now.ms / old.ms,
      }),
    )
  }
  return results
}
