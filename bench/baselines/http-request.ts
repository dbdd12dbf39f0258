/**
 * The typical list request of the HTTP figure, sent to `GET /users` of the eager data set (1,000 users):
 * four wheres (one through a relation), one `relations_exists`, two orders, a page of 20, and `with` of
 * two relations — about a hundred users match; the page carries 20 users with their posts and team.
 */
export const httpRequest = {
  wheres: [
    { column: 'name', operator: 'like', value: 'user 1%', boolean: 'and' },
    { column: 'is_admin', operator: '=', value: false, boolean: 'and' },
    { column: 'created_at', operator: '>=', value: '2020-01-01T00:00:00.000Z', boolean: 'and' },
    { column: 'posts.title', operator: 'like', value: '%o%', boolean: 'and' },
  ],
  relations_exists: ['comments'],
  orders: [
    { column: 'name', direction: 'asc' },
    { column: 'created_at', direction: 'desc' },
  ],
  limit: 20,
  page: 2,
  with: ['posts', 'team'],
}
