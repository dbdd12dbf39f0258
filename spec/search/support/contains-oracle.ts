import { demoData } from '../../../fixtures/data.ts'
import { searchTerms } from '../../../lib/parse/search-terms.ts'

/** The text of each post a `contains` search over title, body, author.name and tags.name reads, one list per column. */
function postTexts(hiddenUsers: ReadonlySet<number>): Map<number, string[][]> {
  const texts = new Map<number, string[][]>()
  for (const post of demoData.posts) {
    const author = demoData.users.find((user) => user.id === post.user_id && !hiddenUsers.has(user.id))
    const tags = demoData.post_tag
      .filter((link) => link.post_id === post.id)
      .flatMap((link) => demoData.tags.filter((tag) => tag.id === link.tag_id).map((tag) => tag.name))
    texts.set(post.id, [
      [post.title],
      post.body === null ? [] : [post.body],
      author === undefined ? [] : [author.name],
      tags,
    ])
  }
  return texts
}

/**
 * The ids of the demo posts a `contains` search for `text` finds, computed in plain JS: every term (ASCII case
 * folded, as every database folds it) is a substring of some value of some searched column.
 */
export function containsOracle(text: string, hiddenUsers: ReadonlySet<number> = new Set()): number[] {
  const terms = searchTerms(text).map((term) => term.toLowerCase())
  const ids: number[] = []
  for (const [id, columns] of postTexts(hiddenUsers)) {
    const values = columns.flat().map((value) => value.toLowerCase())
    if (terms.every((term) => values.some((value) => value.includes(term)))) ids.push(id)
  }
  return ids.sort((a, b) => a - b)
}
