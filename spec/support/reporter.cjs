// Mocha's spec reporter, closing with a plain `tests: N passed, N failed, N skipped` line that CI reads.
// CommonJS because mocha loads reporters with require().
const Mocha = require('mocha')

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options)
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats
      process.stdout.write(`\ntests: ${passes} passed, ${failures} failed, ${pending} skipped\n`)
    })
  }
}

module.exports = SpecWithSummary
