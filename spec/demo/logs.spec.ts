import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { connect, createServer, type AddressInfo, type Server } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import knex, { type Knex } from 'knex'
import { buildApp } from '../../demo/app.ts'
import { logDestination, prettyLogLine } from '../../demo/pretty-log.ts'
import { MAX_LOGGED_URL } from '../../demo/request-log.ts'
import { migrate } from '../../fixtures/migrate.ts'
import { seed } from '../../fixtures/seed.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

interface LogLine {
  level: number
  msg: string
  statusCode?: number
  code?: string
  param?: string
}

/** A stream that keeps every JSON line the logger writes. */
function captureLines(): { stream: Writable; lines: LogLine[] } {
  const lines: LogLine[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line) as LogLine)
      done()
    },
  })
  return { stream, lines }
}

/** GET `path` on a listening app with a raw socket-level request (so Node's header limit applies). */
function rawGet(port: number, path: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type']), body }),
      )
    })
    request.on('error', reject)
    request.end()
  })
}

describe('demo logs', function () {
  this.timeout(60_000)
  let db: Knex
  let app: FastifyInstance
  let lines: LogLine[]

  before(async () => {
    db = knex({
      client: 'better-sqlite3',
      connection: { filename: ':memory:' },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    })
    await migrate(db)
    await seed(db)
    const capture = captureLines()
    lines = capture.lines
    app = buildApp({ db, logger: { level: 'info', stream: capture.stream } })
    await app.listen({ port: 0, host: '127.0.0.1' })
  })
  after(async () => {
    await app.close()
    await db.destroy()
  })
  beforeEach(() => {
    lines.length = 0
  })

  const lastLine = (): LogLine => {
    const line = lines.at(-1)
    expect(line, 'a log line').to.not.equal(undefined)
    return line as LogLine
  }

  it('logs a request in one line: method, URL, status and duration', async () => {
    const response = await app.inject({ method: 'GET', url: '/users?limit=1' })
    expect(response.statusCode).to.equal(200)
    expect(lines).to.have.length(1)
    expect(lastLine()).to.include({ level: 30, statusCode: 200 })
    expect(lastLine().msg).to.match(/^GET \/users\?limit=1 200 \d+(\.\d)?ms$/)
    expect(lastLine()).to.not.have.property('code')
  })

  it('a 400 line carries the code and param of the QueryParamsError', async () => {
    const response = await app.inject({ method: 'GET', url: '/posts?wheres[0][column]=password&wheres[0][value]=x' })
    expect(response.statusCode).to.equal(400)
    expect(lastLine()).to.include({ statusCode: 400, code: 'unknown_column', param: 'wheres[0][column]' })
    const number = await app.inject({ method: 'GET', url: '/posts?limit=100000000000000000000000' })
    expect(number.statusCode).to.equal(400)
    expect(lastLine()).to.include({ statusCode: 400, code: 'invalid_number', param: 'limit' })
  })

  it('cuts a long URL in the log line, keeping its length', async () => {
    const url = `/users?wheres[0][column]=name&wheres[0][operator]=in${'&wheres[0][value][]=someone'.repeat(300)}`
    const response = await app.inject({ method: 'GET', url })
    expect(response.statusCode).to.equal(200)
    const { msg } = lastLine()
    expect(msg).to.equal(
      `GET ${url.slice(0, MAX_LOGGED_URL)}…(${url.length} characters) 200 ${/ (\S+ms)$/.exec(msg)?.[1] ?? ''}`,
    )
    expect(msg.length).to.be.below(MAX_LOGGED_URL + 60)
  })

  it('a 15 KB URL with a malformed key: a problem body under 1 KB (was 45 KB), and a short log line', async () => {
    const { port } = app.server.address() as AddressInfo
    const url = `/users?limit=2&wheres[${'x'.repeat(15_000)}=1`
    const response = await rawGet(port, url)
    expect(response.status).to.equal(400)
    expect(response.contentType).to.match(/^application\/problem\+json/)
    expect(Buffer.byteLength(response.body)).to.be.below(1024)
    const body = JSON.parse(response.body) as Record<string, unknown>
    expect(body).to.include({ code: 'invalid_syntax', param: `wheres[${'x'.repeat(93)}…(15007 characters)` })
    expect(lastLine()).to.include({ statusCode: 400, code: 'invalid_syntax', param: body['param'] })
    expect(JSON.stringify(lastLine()).length).to.be.below(1024)
  })

  it('answers a URL over the header limit 431 as problem+json, and logs it', async () => {
    const { port } = app.server.address() as AddressInfo
    const response = await rawGet(port, `/users?${'with[]=posts&'.repeat(1700)}`)
    expect(response.status).to.equal(431)
    expect(response.contentType).to.equal('application/problem+json')
    const body = JSON.parse(response.body) as Record<string, unknown>
    expect(body).to.include({
      status: 431,
      title: 'Request Header Fields Too Large',
      code: 'headers_too_large',
      type: 'about:blank',
    })
    expect(body['detail']).to.include('form body')
    expect(response.body).to.not.match(/\n\s+at |\/work\//)
    expect(lastLine()).to.include({ level: 40, statusCode: 431, code: 'headers_too_large' })
  })

  it('answers a malformed HTTP request 400 as problem+json', async () => {
    const { port } = app.server.address() as AddressInfo
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'))
      let text = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk: string) => (text += chunk))
      socket.on('close', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(answer).to.include('Content-Type: application/problem+json\r\n')
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).to.include({ status: 400, code: 'bad_request' })
  })

  it('answers a body over the body limit 413 as problem+json, and logs it', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/teams',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    })
    expect(response.statusCode).to.equal(413)
    expect(response.headers['content-type']).to.match(/^application\/problem\+json/)
    expect(response.json()).to.include({ status: 413, title: 'Content Too Large', code: 'body_too_large' })
    expect(lastLine()).to.include({ statusCode: 413, code: 'body_too_large' })
  })

  it('pretty in a terminal, JSON lines otherwise', () => {
    const json =
      '{"level":30,"time":0,"reqId":"req-1","statusCode":400,"code":"invalid_number","param":"limit","msg":"GET /posts?limit=x 400 1.2ms"}'
    expect(prettyLogLine(json)).to.equal('00:00:00 INFO  GET /posts?limit=x 400 1.2ms code=invalid_number param=limit')
    expect(prettyLogLine('{"level":50,"time":0,"msg":"boom","err":{"stack":"Error: x\\n    at y"}}')).to.equal(
      '00:00:00 ERROR boom\n  Error: x\n      at y',
    )
    expect(prettyLogLine('not json')).to.equal('not json')

    const written: string[] = []
    const terminal = Object.assign(
      new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          written.push(String(chunk))
          done()
        },
      }),
      { isTTY: true },
    )
    const pretty = logDestination(terminal)
    expect(pretty).to.not.equal(terminal)
    pretty.write(`${json}\n${json}\n`)
    expect(written).to.deep.equal([`${prettyLogLine(json)}\n`, `${prettyLogLine(json)}\n`])
    const pipe = new Writable({ write: (_chunk, _encoding, done) => done() })
    expect(logDestination(pipe)).to.equal(pipe)
  })

  describe('a busy port', () => {
    let busy: Server
    let dir: string
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'kqp-demo-'))
      busy = createServer()
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    })
    after(async () => {
      await new Promise((resolve) => busy.close(resolve))
      rmSync(dir, { recursive: true, force: true })
    })

    it('says which variable to set, without a stack, and exits 1', async () => {
      const { port } = busy.address() as AddressInfo
      const env = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}`,
      }
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'demo/server.ts'],
          { cwd: root, env, encoding: 'utf8', timeout: 50_000 },
          (error, stdout, stderr) => {
            resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr })
          },
        )
      })
      expect(run.code).to.equal(1)
      expect(run.stderr.trim()).to.equal(
        `Port ${port} on 127.0.0.1 is already in use. Set PORT to a free port, e.g. PORT=${port + 1} npm run demo.`,
      )
      expect(run.stdout).to.not.include('EADDRINUSE')
    })
  })
})
