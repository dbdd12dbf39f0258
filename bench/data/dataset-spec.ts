/** One generated data set of the demo domain: how many rows of each table. */
export interface DatasetSpec {
  name: 'eager' | 'large'
  teams: number
  users: number
  /** Spread over the users round-robin: user `u` has posts `u`, `u + users`, `u + 2·users`… */
  posts: number
  /** Spread over the posts round-robin, authored by pseudo-random users. */
  comments: number
}

/** Bump when the generated data or the migrations change, so cached databases are rebuilt (2: `deleted_at` columns). */
export const DATASET_VERSION = '2'

/** Figure 2: eager loading `posts.comments` for 1,000 users. */
export const EAGER_DATASET: DatasetSpec = { name: 'eager', teams: 10, users: 1_000, posts: 10_000, comments: 50_000 }

/** Figures 3 and 4: relation filters and pagination on a large table. */
export const LARGE_DATASET: DatasetSpec = {
  name: 'large',
  teams: 100,
  users: 100_000,
  posts: 1_000_000,
  comments: 2_000_000,
}

/**
 * The topics post titles are about (`Post 42 about rust`): each post gets one by a multiplicative hash
 * of its id, so each topic is in about 1% of posts and a user's ten posts have mixed topics.
 */
export const TOPICS: readonly string[] = [
  'sql',
  'rust',
  'typescript',
  'postgres',
  'sqlite',
  'knex',
  'indexes',
  'joins',
  'caching',
  'testing',
  'design',
  'coffee',
  'travel',
  'music',
  'cooking',
  'running',
  'books',
  'movies',
  'gardening',
  'chess',
  'history',
  'physics',
  'biology',
  'poetry',
  'painting',
  'photography',
  'cycling',
  'hiking',
  'climbing',
  'sailing',
  'linux',
  'networks',
  'security',
  'compilers',
  'databases',
  'frontend',
  'backend',
  'devops',
  'cloud',
  'mobile',
  'startups',
  'finance',
  'economics',
  'marketing',
  'writing',
  'careers',
  'teams',
  'hiring',
  'remote',
  'meetings',
  'kotlin',
  'python',
  'golang',
  'haskell',
  'erlang',
  'elixir',
  'scala',
  'swift',
  'ruby',
  'java',
  'algorithms',
  'graphs',
  'queues',
  'streams',
  'search',
  'parsing',
  'regex',
  'unicode',
  'dates',
  'money',
  'birds',
  'cats',
  'dogs',
  'horses',
  'fish',
  'insects',
  'trees',
  'flowers',
  'rivers',
  'mountains',
  'winter',
  'spring',
  'summer',
  'autumn',
  'rain',
  'snow',
  'wind',
  'stars',
  'moon',
  'ocean',
  'bread',
  'cheese',
  'wine',
  'tea',
  'chocolate',
  'pasta',
  'soup',
  'salad',
  'pizza',
  'noodles',
]

/** Comment bodies are `comment 0` … `comment 999`, by a hash of the comment id: each about 0.1% of comments. */
export const COMMENT_PHRASES = 1000
