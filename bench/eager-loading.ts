import { relationMap } from '../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../lib/index.ts'
import { naiveUsersWithPostsAndComments } from './baselines/naive-eager-loading.ts'
import { objectionUsersWithPostsAndComments } from './baselines/objection-models.ts'
import { clientQueryString } from './client-query-string.ts'
import { countQueries } from './count-queries.ts'
import type { BenchDatabase } from './data/ensure-dataset.ts'
import type { DatasetSpec } from './data/dataset-spec.ts'
import { measured, result, type BenchResult } from './result.ts'
import { compare, type Budget } from './timing.ts'
import { LARGE_EAGER_BUDGET } from './large-eager-budget.ts'
import { RELEASE_BEFORE, releaseBefore } from './release-before.ts'

const FIGURE = '2. eager loading'

type Row = Record<string, unknown>

/** `[users, posts, comments]` attached: the three approaches must load the same graph. */
function shape(rows: unknown): [number, number, number] {
  const users = rows as Row[]
  let posts = 0
  let comments = 0
  for (const user of users) {
    const userPosts = (user.posts ?? []) as Row[]
    posts += userPosts.length
    for (const post of userPosts) comments += ((post.comments ?? []) as Row[]).length
  }
  return [users.length, posts, comments]
}

/**
 * Figure 2: `with=posts.comments` for every user of the eager data set (1,000 users, 10,000 posts,
 * 50,000 comments): the library (parse + apply + run, one `WHERE … IN` query per level) against objection.js
 * `withGraphFetched('posts.comments')` and against the naive per-row loop (N+1), by time and query count; and the
 * release before ({@link RELEASE_BEFORE}) against objection in the same run, as a column.
 */
export async function eagerLoading(
  database: BenchDatabase,
  spec: DatasetSpec,
  budget: Budget,
  slowBudget: Budget,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const db = database.knex
  const request = clientQueryString({ with: ['posts.comments'] })
  const ours = (): Promise<unknown> =>
    applyQueryParams(db('users'), parseQueryParams(request), relationMap, {
      maxEagerRows: LARGE_EAGER_BUDGET,
    }) as unknown as Promise<unknown>
  const objection = (): Promise<unknown> => objectionUsersWithPostsAndComments(db)
  const before = await releaseBefore()
  const release =
    before === undefined
      ? undefined
      : (): Promise<unknown> =>
          before.applyQueryParams(
            db('users'),
            before.parseQueryParams(request) as never,
            before.relationMap as never,
          ) as unknown as Promise<unknown>
  if (release === undefined) log(`  release ${RELEASE_BEFORE} not found (no git history): its row is left out`)
  const naive = (): Promise<unknown> => naiveUsersWithPostsAndComments(db)

  const expected = JSON.stringify([spec.users, spec.posts, spec.comments])
  const shapes = {
    ours: shape(await ours()),
    objection: shape(await objection()),
    naive: shape(await naive()),
    ...(release === undefined ? {} : { release: shape(await release()) }),
  }
  for (const [name, got] of Object.entries(shapes)) {
    if (JSON.stringify(got) !== expected)
      throw new Error(`eager loading: ${name} loaded ${JSON.stringify(got)} users/posts/comments, expected ${expected}`)
  }
  const queries = {
    ours: await countQueries(db, ours),
    objection: await countQueries(db, objection),
    naive: await countQueries(db, naive),
  }
  const name = `with=posts.comments (${spec.users} users, ${spec.posts} posts, ${spec.comments} comments)`
  const vsObjection = await compare(ours, objection, budget)
  const vsNaive = await compare(ours, naive, slowBudget)
  const releaseQueries = release === undefined ? undefined : await countQueries(db, release)
  const releaseVsObjection = release === undefined ? undefined : await compare(release, objection, budget)
  if (releaseVsObjection !== undefined)
    log(`  ${database.dialect}: release ${RELEASE_BEFORE} ×${releaseVsObjection.ratio.toFixed(2)} of objection`)
  log(
    `  ${database.dialect}: ×${vsObjection.ratio.toFixed(2)} of objection (${queries.ours} vs ${queries.objection} queries), ×${vsNaive.ratio.toFixed(3)} of N+1 (${queries.naive} queries)`,
  )
  return [
    result({
      figure: FIGURE,
      name,
      dialect: database.dialect,
      unit: 'ms',
      ours: measured('parse + apply + run (one query per level)', vsObjection.ours, queries.ours),
      baseline: measured("objection withGraphFetched('posts.comments')", vsObjection.baseline, queries.objection),
      ratio: vsObjection.ratio,
      target: { op: '<', value: 1 },
      note:
        queries.ours === queries.objection
          ? 'same number of queries'
          : `query counts differ: ${queries.ours} vs ${queries.objection}`,
    }),
    result({
      figure: FIGURE,
      name,
      dialect: database.dialect,
      unit: 'ms',
      ours: measured('parse + apply + run (one query per level)', vsNaive.ours, queries.ours),
      baseline: measured('naive loop, one query per user and per post (N+1)', vsNaive.baseline, queries.naive),
      ratio: vsNaive.ratio,
    }),
    ...(releaseVsObjection === undefined
      ? []
      : [
          result({
            figure: FIGURE,
            name: `${name}, release ${RELEASE_BEFORE}`,
            dialect: database.dialect,
            unit: 'ms',
            ours: measured(`parse + apply + run (release ${RELEASE_BEFORE})`, releaseVsObjection.ours, releaseQueries),
            baseline: measured(
              "objection withGraphFetched('posts.comments')",
              releaseVsObjection.baseline,
              queries.objection,
            ),
            ratio: releaseVsObjection.ratio,
          }),
        ]),
  ]
}
