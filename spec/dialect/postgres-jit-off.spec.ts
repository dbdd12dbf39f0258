import { expect } from 'chai'
import { postgresJitOff } from '../../lib/dialect/postgres-jit-off.ts'

/** A node-postgres client as far as `postgresJitOff` uses it: the statements it was sent, answered as `answer` says. */
function session(jit: boolean, answer: (text: string) => Promise<void> = async () => undefined) {
  const sent: string[] = []
  return {
    sent,
    processID: 42,
    async query(text: string) {
      sent.push(text)
      await answer(text)
      return { rows: [{ on: jit }] }
    },
  }
}

describe('postgresJitOff: JIT kept out of a bounded statement', () => {
  it('asks the session once, then sends set jit = off before each statement and queues set jit = on after it', async () => {
    const jit = session(true)
    const restore = await postgresJitOff(jit)
    expect(jit.sent).to.deep.equal([
      "select current_setting('jit') = 'on' and pg_jit_available() as on",
      'set jit = off',
    ])
    await restore?.()
    await postgresJitOff(jit)
    expect(jit.sent.slice(2)).to.deep.equal(['set jit = on', 'set jit = off'])
  })

  it('does not wait for set jit = on: the connection runs it before its next statement', async () => {
    let answered = false
    const jit = session(true, (text) => (text === 'set jit = on' ? new Promise(() => undefined) : Promise.resolve()))
    const restore = await postgresJitOff(jit)
    await restore?.().then(() => {
      answered = true
    })
    expect(answered).to.equal(true)
    expect(jit.sent.at(-1)).to.equal('set jit = on')
  })

  it('changes nothing on a session with JIT off (one question per connection), nor on a connection without a backend', async () => {
    const off = session(false)
    expect(await postgresJitOff(off)).to.equal(undefined)
    expect(await postgresJitOff(off)).to.equal(undefined)
    expect(off.sent).to.have.length(1)
    expect(await postgresJitOff({ query: async () => ({ rows: [] }) })).to.equal(undefined)
  })
})
