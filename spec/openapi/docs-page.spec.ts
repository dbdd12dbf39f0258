import { expect } from 'chai'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { RESOURCES } from '../../demo/resources.ts'
import { testDatabases } from '../support/databases.ts'
import { startDemo, type RunningDemo } from '../e2e/support/demo-client.ts'

/** Debian's Chromium (`apt-get install -y chromium`); `.ci/run` installs it. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const SCREENSHOT = fileURLToPath(new URL('../../docs/openapi-demo.png', import.meta.url))

type Row = Record<string, unknown>

describe('the demo docs page in a real browser (Chromium, playwright-core)', function () {
  this.timeout(90_000)
  if (!existsSync(CHROMIUM)) {
    if (process.env['CI'] === 'true') {
      it(`needs ${CHROMIUM} in CI`, () => {
        throw new Error(`${CHROMIUM} is absent: .ci/run installs Debian's chromium for this test`)
      })
      return
    }
    it(`skipped: ${CHROMIUM} is absent (apt-get install -y chromium, or set CHROMIUM_PATH)`, function () {
      this.skip()
    })
    return
  }

  const db = testDatabases()[0]
  let demo: RunningDemo
  let context: BrowserContext
  let profile: string
  let page: Page
  const foreign: string[] = []

  before(async () => {
    if (db === undefined) throw new Error('no test database')
    demo = await startDemo(db.knex)
    profile = mkdtempSync(join(tmpdir(), 'kqp-chromium-'))
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1280, height: 900 },
    })
    page = await context.newPage()
    page.on('request', (request) => {
      if (!request.url().startsWith(demo.client.baseUrl)) foreign.push(request.url())
    })
  })

  after(async () => {
    await context?.close()
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true })
    await demo?.close()
  })

  it('loads /docs and lists every resource of the demo map, each with its list and item operations', async () => {
    await page.goto(`${demo.client.baseUrl}/docs`)
    await page.waitForSelector('.opblock-tag', { timeout: 30_000 })
    expect(await page.locator('.opblock-tag').allInnerTexts()).to.deep.equal([...RESOURCES])
    for (const name of RESOURCES) {
      expect(
        await page.locator(`#operations-${name}-list${name[0]?.toUpperCase()}${name.slice(1)}`).count(),
        name,
      ).to.equal(1)
    }
  })

  it('a request sent from the page (orders and limit) shows the rows the API returns, bracket-encoded', async () => {
    const operation = page.locator('#operations-posts-listPosts')
    await operation.locator('.opblock-summary').click()
    const orders = operation.locator('tr[data-param-name="orders"]')
    await orders.getByText('Add object item').click()
    await orders.locator('textarea').first().fill('{"column":"views","direction":"desc"}')
    await operation.locator('tr[data-param-name="limit"] input').fill('3')
    await operation.locator('button.execute').click()
    await operation.locator('.live-responses-table').waitFor({ timeout: 30_000 })
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText, the text as rendered
    expect(await operation.locator('.request-url pre').innerText()).to.equal(
      `${demo.client.baseUrl}/posts?orders[0][column]=views&orders[0][direction]=desc&limit=3`,
    )
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText, the text as rendered
    const status = await operation.locator('.live-responses-table tbody .response-col_status').first().innerText()
    expect(status.trim()).to.equal('200')
    const shown = JSON.parse(
      await operation
        .locator('.live-responses-table tbody .response-col_description pre.microlight')
        .first()
        // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText, the text as rendered
        .innerText(),
    ) as { data: Row[] }
    const direct = await demo.client.get<{ data: Row[] }>('/posts', {
      orders: [{ column: 'views', direction: 'desc' }],
      limit: 3,
    })
    expect(shown.data).to.have.length(3)
    expect(shown).to.deep.equal(direct.body)
    await operation
      .locator('.live-responses-table tbody pre.microlight')
      .first()
      .evaluate((element) => element.scrollIntoView({ block: 'center' }))
    await page.screenshot({ path: process.env['UPDATE_SCREENSHOTS'] === '1' ? SCREENSHOT : join(profile, 'docs.png') })
  })

  it('the page loaded nothing from another origin', () => {
    expect(foreign).to.deep.equal([])
  })
})
