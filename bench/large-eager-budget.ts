/**
 * The `maxEagerRows` of the figures that measure large eager loads on purpose (figure 2's 50,000 rows, figures
 * 7 and 11): raised past the default 10,000, as an application that serves such loads would raise it.
 */
export const LARGE_EAGER_BUDGET = 1_000_000
