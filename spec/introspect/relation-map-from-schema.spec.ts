import { expect } from 'chai'
import { relationMapFromSchema } from '../../lib/introspect/relation-map-from-schema.ts'
import { DEFAULT_SECRET_COLUMNS } from '../../lib/introspect/options.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type {
  SchemaColumn,
  SchemaForeignKey,
  SchemaSnapshot,
  SchemaTable,
} from '../../lib/dialect/schema/schema-snapshot.ts'
import type { ColumnType } from '../../lib/relation-map.ts'

/** A column: `type` undefined for a type no map type holds. */
const column = (
  name: string,
  type: ColumnType | undefined,
  nullable = true,
  dataType = type ?? 'bytea',
): SchemaColumn => ({ name, dataType, type, nullable })
const notNull = (name: string, type: ColumnType): SchemaColumn => column(name, type, false)
const fk = (
  columns: string | string[],
  referencedTable: string,
  referencedColumns: string | string[] = 'id',
  enforced = true,
): SchemaForeignKey => ({
  name: undefined,
  columns: typeof columns === 'string' ? [columns] : columns,
  referencedTable,
  referencedColumns: typeof referencedColumns === 'string' ? [referencedColumns] : referencedColumns,
  enforced,
})
const table = (
  name: string,
  columns: SchemaColumn[],
  extra: Partial<Omit<SchemaTable, 'name' | 'columns'>> = {},
): SchemaTable => ({
  name,
  columns,
  primaryKey: extra.primaryKey ?? (columns.some((candidate) => candidate.name === 'id') ? ['id'] : []),
  uniques: extra.uniques ?? [],
  indexes: extra.indexes ?? [],
  foreignKeys: extra.foreignKeys ?? [],
})
const snapshot = (...tables: SchemaTable[]): SchemaSnapshot => ({
  tables: [...tables].sort((left, right) => (left.name < right.name ? -1 : 1)),
})

const id = notNull('id', 'integer')
const kinds = (result: ReturnType<typeof relationMapFromSchema>): string[] =>
  result.notices.map((notice) => `${notice.kind} ${notice.message}`)

describe('relationMapFromSchema (hand-made snapshots)', () => {
  describe('columns', () => {
    const users = table(
      'users',
      [
        id,
        notNull('email', 'string'),
        column('nickname', 'string'),
        notNull('is_admin', 'boolean'),
        column('born_on', 'date'),
        column('score', 'number'),
        notNull('created_at', 'datetime'),
        column('settings', undefined),
      ],
      { uniques: [['email'], ['nickname', 'born_on']] },
    )

    it('declares each column with its map type, nullable: false when NOT NULL, unique: true for single-column uniques only', () => {
      const { map } = relationMapFromSchema(snapshot(users))
      expect(map).to.deep.equal({
        users: {
          columns: {
            id: 'integer',
            email: { type: 'string', nullable: false, unique: true },
            nickname: 'string',
            is_admin: { type: 'boolean', nullable: false },
            born_on: 'date',
            score: 'number',
            created_at: { type: 'datetime', nullable: false },
          },
        },
      })
    })

    it('sortableIndexedOnly: sortable: false on each column that leads no index nor the primary key, one notice per table', () => {
      const indexed = { ...users, indexes: [['email'], ['nickname', 'born_on'], ['score', 'created_at']] }
      expect(relationMapFromSchema(snapshot(indexed)).map).to.deep.equal(relationMapFromSchema(snapshot(users)).map)
      const result = relationMapFromSchema(snapshot(indexed), { sortableIndexedOnly: true, naming: 'camel' })
      expect(result.map).to.deep.equal({
        users: {
          columns: {
            id: 'integer',
            email: { type: 'string', nullable: false, unique: true },
            nickname: 'string',
            isAdmin: { type: 'boolean', column: 'is_admin', nullable: false, sortable: false },
            bornOn: { type: 'date', column: 'born_on', sortable: false },
            score: 'number',
            createdAt: { type: 'datetime', column: 'created_at', nullable: false, sortable: false },
          },
        },
      })
      expect(defineRelationMap(result.map)).to.equal(result.map)
      expect(result.notices.filter((notice) => notice.kind === 'unindexed-sort')).to.deep.equal([
        {
          kind: 'unindexed-sort',
          table: 'users',
          message:
            'users: sortable: false on is_admin, born_on, created_at, since no index starts with them (sortableIndexedOnly)',
        },
      ])
    })

    it('leaves out a column no map type holds, and reports it with its database type', () => {
      const result = relationMapFromSchema(snapshot(users))
      expect(result.notices).to.deep.equal([
        {
          kind: 'unmapped-column',
          table: 'users',
          column: 'settings',
          message: "users.settings: left out, no map type holds its database type 'bytea'",
        },
      ])
    })

    it('leaves out and reports every column whose name looks secret, by default', () => {
      const names = [
        'password',
        'password_hash',
        'PasswordHash',
        'hashed_password',
        'remember_token',
        'ApiToken',
        'secret',
        'client_secret',
        'api_key',
        'apiKey',
        'private_key',
        'salt',
        'otp_seed',
        'credentials',
        'passwd',
      ]
      const safe = ['passed_exam', 'hashtag', 'keyword', 'salty_snack', 'tokenless'.replace('token', 'tok')]
      const result = relationMapFromSchema(
        snapshot(
          table('accounts', [
            id,
            ...names.map((name) => column(name, 'string')),
            ...safe.map((name) => column(name, 'string')),
          ]),
        ),
      )
      expect(Object.keys(result.map['accounts']?.columns ?? {})).to.deep.equal(['id', ...safe])
      expect(result.notices.map((notice) => [notice.kind, notice.column])).to.deep.equal(
        names.map((name) => ['secret-column', name]),
      )
      expect(result.notices[0]?.message).to.equal('accounts.password: left out, its name looks secret')
    })

    it('takes the secret patterns from options.secretColumns, in place of the default list', () => {
      const accounts = table('accounts', [id, column('password', 'string'), column('ssn', 'string')])
      const result = relationMapFromSchema(snapshot(accounts), { secretColumns: [/^ssn$/] })
      expect(result.map['accounts']?.columns).to.deep.equal({ id: 'integer', password: 'string' })
      expect(kinds(result)).to.deep.equal(['secret-column accounts.ssn: left out, its name looks secret'])
      const both = relationMapFromSchema(snapshot(accounts), { secretColumns: [...DEFAULT_SECRET_COLUMNS, /^ssn$/] })
      expect(both.map['accounts']?.columns).to.deep.equal({ id: 'integer' })
    })
  })

  describe('primary keys', () => {
    it("omits primaryKey when it is 'id', names a single other key column, and gives a composite key as an array", () => {
      const { map } = relationMapFromSchema(
        snapshot(
          table('genres', [notNull('GenreId', 'integer'), column('Name', 'string')], { primaryKey: ['GenreId'] }),
          table(
            'playlist_track',
            [notNull('playlist_id', 'integer'), notNull('track_id', 'integer'), notNull('position', 'integer')],
            { primaryKey: ['playlist_id', 'track_id'] },
          ),
          table('users', [id]),
        ),
      )
      expect(map).to.deep.equal({
        genres: { primaryKey: 'GenreId', columns: { GenreId: 'integer', Name: 'string' } },
        playlist_track: {
          primaryKey: ['playlist_id', 'track_id'],
          columns: {
            playlist_id: { type: 'integer', nullable: false },
            track_id: { type: 'integer', nullable: false },
            position: { type: 'integer', nullable: false },
          },
        },
        users: { columns: { id: 'integer' } },
      })
    })

    it('uses a unique NOT NULL constraint as the key of a table without a primary key, and reports it', () => {
      const result = relationMapFromSchema(
        snapshot(
          table('countries', [column('name', 'string'), notNull('code', 'string')], { uniques: [['name'], ['code']] }),
        ),
      )
      expect(result.map).to.deep.equal({
        countries: { primaryKey: 'code', columns: { name: { type: 'string', unique: true }, code: 'string' } },
      })
      expect(kinds(result)).to.deep.equal([
        'no-primary-key countries: no primary key; the unique NOT NULL column code serves as its key',
      ])
    })

    it('leaves out a table with no key at all, and the relations to it, reporting both', () => {
      const result = relationMapFromSchema(
        snapshot(
          table('events', [column('user_id', 'integer'), column('name', 'string')], {
            foreignKeys: [fk('user_id', 'users')],
          }),
          table('users', [id]),
          table('notes', [id, column('event_name', 'string')], { foreignKeys: [fk('event_name', 'events', 'name')] }),
        ),
      )
      expect(result.map).to.deep.equal({
        notes: { columns: { id: 'integer', event_name: 'string' } },
        users: { columns: { id: 'integer' } },
      })
      expect(kinds(result)).to.deep.equal([
        'no-primary-key events: left out, it has no primary key and no unique NOT NULL columns to identify its rows',
        'foreign-key-outside-map notes.event_name: no relation, it references events, not in the map',
      ])
    })
  })

  describe('relations from foreign keys', () => {
    const users = table('users', [id, notNull('name', 'string')])
    const teams = table('teams', [id, column('leader_id', 'integer'), column('owner', 'integer')], {
      foreignKeys: [fk('leader_id', 'users'), fk('owner', 'users')],
    })

    it('names a belongsTo after its column without _id, else after the referenced table in the singular; the inverse hasMany after the referencing table', () => {
      const books = table('books', [id, notNull('author_id', 'integer'), column('editor', 'integer')], {
        foreignKeys: [fk('author_id', 'users'), fk('editor', 'categories')],
      })
      const categories = table('categories', [id])
      const result = relationMapFromSchema(snapshot(books, categories, users))
      expect(result.map['books']?.relations).to.deep.equal({
        author: { type: 'belongsTo', table: 'users', foreignKey: 'author_id', required: true },
        category: { type: 'belongsTo', table: 'categories', foreignKey: 'editor' },
      })
      expect(result.map['users']?.relations).to.deep.equal({
        books: { type: 'hasMany', table: 'books', foreignKey: 'author_id' },
      })
      expect(result.map['categories']?.relations).to.deep.equal({
        books: { type: 'hasMany', table: 'books', foreignKey: 'editor' },
      })
      expect(result.notices).to.deep.equal([])
    })

    it('strips Id and ID from PascalCase and camelCase columns too', () => {
      const albums = table(
        'Album',
        [notNull('AlbumId', 'integer'), notNull('ArtistId', 'integer'), column('coverID', 'integer')],
        {
          primaryKey: ['AlbumId'],
          foreignKeys: [fk('ArtistId', 'Artist', 'ArtistId'), fk('coverID', 'Image', 'ImageId')],
        },
      )
      const artists = table('Artist', [notNull('ArtistId', 'integer')], { primaryKey: ['ArtistId'] })
      const images = table('Image', [notNull('ImageId', 'integer')], { primaryKey: ['ImageId'] })
      const { map } = relationMapFromSchema(snapshot(albums, artists, images))
      expect(map['Album']?.relations).to.deep.equal({
        Artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'ArtistId', required: true },
        cover: { type: 'belongsTo', table: 'Image', foreignKey: 'coverID' },
      })
      expect(map['Artist']?.relations).to.deep.equal({
        Albums: { type: 'hasMany', table: 'Album', foreignKey: 'ArtistId' },
      })
    })

    it('is required only when the column is NOT NULL and the database enforces the key; an unenforced NOT NULL key is reported', () => {
      const posts = table(
        'posts',
        [id, notNull('user_id', 'integer'), notNull('editor_id', 'integer'), column('reviewer_id', 'integer')],
        {
          foreignKeys: [fk('user_id', 'users'), fk('editor_id', 'users', 'id', false), fk('reviewer_id', 'users')],
        },
      )
      const result = relationMapFromSchema(snapshot(posts, users))
      expect(result.map['posts']?.relations).to.deep.equal({
        editor: { type: 'belongsTo', table: 'users', foreignKey: 'editor_id' },
        reviewer: { type: 'belongsTo', table: 'users', foreignKey: 'reviewer_id' },
        user: { type: 'belongsTo', table: 'users', foreignKey: 'user_id', required: true },
      })
      expect(kinds(result)).to.include(
        'unenforced-foreign-key posts.editor_id: NOT NULL, but the database does not enforce its foreign key to users: the belongsTo is not required',
      )
    })

    it('gives a unique foreign key a hasOne (singular) inverse, and a key to a non-key column ownerKey/localKey', () => {
      const profiles = table('profiles', [id, notNull('user_id', 'integer'), column('user_email', 'string')], {
        uniques: [['user_id']],
        foreignKeys: [fk('user_id', 'users'), fk('user_email', 'accounts', 'email')],
      })
      const accounts = table('accounts', [id, notNull('email', 'string')], { uniques: [['email']] })
      const { map } = relationMapFromSchema(snapshot(accounts, profiles, users))
      expect(map['profiles']?.relations).to.deep.equal({
        user: { type: 'belongsTo', table: 'users', foreignKey: 'user_id', required: true },
        account: { type: 'belongsTo', table: 'accounts', foreignKey: 'user_email', ownerKey: 'email' },
      })
      expect(map['users']?.relations).to.deep.equal({
        profile: { type: 'hasOne', table: 'profiles', foreignKey: 'user_id' },
      })
      expect(map['accounts']?.relations).to.deep.equal({
        profiles: { type: 'hasMany', table: 'profiles', foreignKey: 'user_email', localKey: 'email' },
      })
    })

    it('a key that is also the primary key (one-to-one by shared key) gives hasOne', () => {
      const details = table('user_details', [notNull('user_id', 'integer'), column('bio', 'string')], {
        primaryKey: ['user_id'],
        foreignKeys: [fk('user_id', 'users')],
      })
      const { map } = relationMapFromSchema(snapshot(details, users))
      expect(map['users']?.relations).to.deep.equal({
        user_detail: { type: 'hasOne', table: 'user_details', foreignKey: 'user_id' },
      })
      expect(map['user_details']).to.deep.equal({
        primaryKey: 'user_id',
        columns: { user_id: 'integer', bio: 'string' },
        relations: { user: { type: 'belongsTo', table: 'users', foreignKey: 'user_id', required: true } },
      })
    })

    it('handles a self-reference: manager_id gives manager, and the inverse is children', () => {
      const employees = table('employees', [id, column('manager_id', 'integer')], {
        foreignKeys: [fk('manager_id', 'employees')],
      })
      const { map } = relationMapFromSchema(snapshot(employees))
      expect(map['employees']?.relations).to.deep.equal({
        manager: { type: 'belongsTo', table: 'employees', foreignKey: 'manager_id' },
        children: { type: 'hasMany', table: 'employees', foreignKey: 'manager_id' },
      })
    })

    it('names a self-reference parent and children when its key only repeats the table (parent_id, category_id), child when unique', () => {
      for (const key of ['parent_id', 'category_id']) {
        const categories = table('categories', [id, column(key, 'integer'), column('name', 'string')], {
          foreignKeys: [fk(key, 'categories')],
        })
        const { map } = relationMapFromSchema(snapshot(categories), { naming: 'camel' })
        expect(Object.keys(map['categories']?.relations ?? {}), key).to.deep.equal(['parent', 'children'])
      }
      const nodes = table('nodes', [id, column('node_id', 'integer')], {
        foreignKeys: [fk('node_id', 'nodes')],
        uniques: [['node_id']],
      })
      expect(relationMapFromSchema(snapshot(nodes)).map['nodes']?.relations).to.deep.equal({
        parent: { type: 'belongsTo', table: 'nodes', foreignKey: 'node_id' },
        child: { type: 'hasOne', table: 'nodes', foreignKey: 'node_id' },
      })
    })

    it('names the inverses by their key when several foreign keys of one table reference the same table, and reports it', () => {
      const result = relationMapFromSchema(snapshot(teams, users))
      expect(result.map['teams']?.relations).to.deep.equal({
        leader: { type: 'belongsTo', table: 'users', foreignKey: 'leader_id' },
        user: { type: 'belongsTo', table: 'users', foreignKey: 'owner' },
      })
      expect(result.map['users']?.relations).to.deep.equal({
        teams_by_leader_id: { type: 'hasMany', table: 'teams', foreignKey: 'leader_id' },
        teams_by_owner: { type: 'hasMany', table: 'teams', foreignKey: 'owner' },
      })
      expect(kinds(result)).to.deep.equal([
        "relation-name-clash users: relation 'teams_by_leader_id' named by its key, since 2 foreign keys of teams reference users",
        "relation-name-clash users: relation 'teams_by_owner' named by its key, since 2 foreign keys of teams reference users",
      ])
    })

    it('gives a multi-column foreign key composite relations both ways, and reports a key to a table outside the map', () => {
      const lines = table(
        'order_lines',
        [id, notNull('order_id', 'integer'), notNull('order_year', 'integer'), column('product_id', 'integer')],
        {
          foreignKeys: [fk(['order_id', 'order_year'], 'orders', ['id', 'year']), fk('product_id', 'products')],
        },
      )
      const orders = table('orders', [notNull('id', 'integer'), notNull('year', 'integer')], {
        primaryKey: ['id', 'year'],
      })
      const products = table('products', [id])
      const result = relationMapFromSchema(snapshot(lines, orders, products), { exclude: ['products'] })
      // The referenced columns are the primary key of orders in key order: ownerKey and localKey are left out.
      expect(result.map['order_lines']?.relations).to.deep.equal({
        order: { type: 'belongsTo', table: 'orders', foreignKey: ['order_id', 'order_year'], required: true },
      })
      expect(result.map['orders']?.relations).to.deep.equal({
        order_lines: { type: 'hasMany', table: 'order_lines', foreignKey: ['order_id', 'order_year'] },
      })
      expect(kinds(result)).to.deep.equal([
        'foreign-key-outside-map order_lines.product_id: no relation, it references products, not in the map',
        'excluded-table products: left out, excluded',
      ])
    })
  })

  describe('composite foreign keys', () => {
    it('names the other side when it is not the referenced primary key in order, and a unique composite key gives a hasOne', () => {
      const orders = table('orders', [id, notNull('number', 'integer'), notNull('year', 'integer')], {
        uniques: [['year', 'number']],
      })
      const invoices = table(
        'invoices',
        [id, notNull('order_number', 'integer'), notNull('order_year', 'integer'), column('note', 'string')],
        {
          uniques: [['order_year', 'order_number']],
          foreignKeys: [fk(['order_number', 'order_year'], 'orders', ['number', 'year'], false)],
        },
      )
      const result = relationMapFromSchema(snapshot(invoices, orders))
      expect(result.map['invoices']?.relations).to.deep.equal({
        order: {
          type: 'belongsTo',
          table: 'orders',
          foreignKey: ['order_number', 'order_year'],
          ownerKey: ['number', 'year'],
        },
      })
      expect(result.map['orders']?.relations).to.deep.equal({
        invoice: {
          type: 'hasOne',
          table: 'invoices',
          foreignKey: ['order_number', 'order_year'],
          localKey: ['number', 'year'],
        },
      })
      expect(kinds(result)).to.deep.equal([
        'unenforced-foreign-key invoices.order_number, order_year: NOT NULL, but the database does not enforce its ' +
          'foreign key to orders: the belongsTo is not required',
      ])
    })
  })

  describe('pivots', () => {
    const posts = table('posts', [id, notNull('title', 'string')])
    const tags = table('tags', [id, notNull('name', 'string')])
    const postTag = (
      extra: SchemaColumn[] = [],
      key: Partial<Pick<SchemaTable, 'primaryKey' | 'uniques'>> = { primaryKey: ['post_id', 'tag_id'] },
    ): SchemaTable =>
      table('post_tag', [notNull('post_id', 'integer'), notNull('tag_id', 'integer'), ...extra], {
        ...key,
        foreignKeys: [fk('tag_id', 'tags'), fk('post_id', 'posts')],
      })

    const linked = {
      posts: {
        type: 'belongsToMany',
        table: 'tags',
        pivotTable: 'post_tag',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'tag_id',
      },
      tags: {
        type: 'belongsToMany',
        table: 'posts',
        pivotTable: 'post_tag',
        foreignPivotKey: 'tag_id',
        relatedPivotKey: 'post_id',
      },
    }

    it('turns a pivot (key of its two foreign keys, timestamps only) into belongsToMany on both sides and leaves it out', () => {
      const result = relationMapFromSchema(
        snapshot(posts, postTag([column('created_at', 'datetime'), column('updatedAt', 'datetime')]), tags),
      )
      expect(result.map).to.deep.equal({
        posts: {
          columns: { id: 'integer', title: { type: 'string', nullable: false } },
          relations: { tags: linked.posts },
        },
        tags: {
          columns: { id: 'integer', name: { type: 'string', nullable: false } },
          relations: { posts: linked.tags },
        },
      })
      expect(kinds(result)).to.deep.equal([
        'pivot-table post_tag: not exposed, a pivot table linking posts and tags (belongsToMany); set exposePivots to expose it',
      ])
    })

    it('also recognises a pivot keyed by a unique constraint', () => {
      const { map } = relationMapFromSchema(
        snapshot(posts, postTag([], { primaryKey: [], uniques: [['tag_id', 'post_id']] }), tags),
      )
      expect(map['posts']?.relations).to.deep.equal({ tags: linked.posts })
      expect(map['post_tag']).to.equal(undefined)
    })

    // Changed on purpose (issue 30 point 6): a link table is recognised by its keys whatever else it carries; it was a
    // table with two belongsTo only, so a client's belongsToMany (tags.id in a where) was a 400.
    it('a link table with data of its own is a pivot (belongsToMany both ways) and stays a table for its data', () => {
      const result = relationMapFromSchema(
        snapshot(posts, postTag([column('weight', 'number'), column('last_update', 'datetime')]), tags),
      )
      const { map } = result
      expect(map['post_tag']).to.deep.equal({
        primaryKey: ['post_id', 'tag_id'],
        columns: {
          post_id: { type: 'integer', nullable: false },
          tag_id: { type: 'integer', nullable: false },
          weight: 'number',
          last_update: 'datetime',
        },
        relations: {
          post: { type: 'belongsTo', table: 'posts', foreignKey: 'post_id', required: true },
          tag: { type: 'belongsTo', table: 'tags', foreignKey: 'tag_id', required: true },
        },
      })
      expect(map['posts']?.relations).to.deep.equal({
        post_tags: { type: 'hasMany', table: 'post_tag', foreignKey: 'post_id' },
        tags: linked.posts,
      })
      expect(map['tags']?.relations).to.deep.equal({
        post_tags: { type: 'hasMany', table: 'post_tag', foreignKey: 'tag_id' },
        posts: linked.tags,
      })
      expect(kinds(result)).to.deep.equal([
        'pivot-table post_tag: a pivot table linking posts and tags (belongsToMany), kept as a table of its own too ' +
          'for its columns weight',
      ])
    })

    it('a link table with data but keyed otherwise (its own id, no unique pair) is no pivot', () => {
      const { map } = relationMapFromSchema(
        snapshot(posts, postTag([notNull('id', 'integer'), column('weight', 'number')], { primaryKey: ['id'] }), tags),
      )
      expect(map['posts']?.relations).to.deep.equal({
        post_tags: { type: 'hasMany', table: 'post_tag', foreignKey: 'post_id' },
      })
    })

    it('with exposePivots, keeps the pivot as a table too, with its belongsTo and their inverses', () => {
      const result = relationMapFromSchema(snapshot(posts, postTag(), tags), { exposePivots: true })
      expect(result.map['posts']?.relations).to.deep.equal({
        post_tags: { type: 'hasMany', table: 'post_tag', foreignKey: 'post_id' },
        tags: linked.posts,
      })
      expect(Object.keys(result.map['post_tag']?.relations ?? {})).to.deep.equal(['post', 'tag'])
      expect(result.notices).to.deep.equal([])
    })

    it('a self-referencing pivot gives two belongsToMany on the one table, told apart by name', () => {
      const friendships = table('friendships', [notNull('user_id', 'integer'), notNull('friend_id', 'integer')], {
        primaryKey: ['user_id', 'friend_id'],
        foreignKeys: [fk('user_id', 'users'), fk('friend_id', 'users')],
      })
      const result = relationMapFromSchema(snapshot(friendships, table('users', [id])))
      expect(result.map['users']?.relations).to.deep.equal({
        users: {
          type: 'belongsToMany',
          table: 'users',
          pivotTable: 'friendships',
          foreignPivotKey: 'friend_id',
          relatedPivotKey: 'user_id',
        },
        users_via_friendships: {
          type: 'belongsToMany',
          table: 'users',
          pivotTable: 'friendships',
          foreignPivotKey: 'user_id',
          relatedPivotKey: 'friend_id',
        },
      })
      expect(kinds(result)).to.include(
        "relation-name-clash users: relation 'users_via_friendships' renamed, since 'users' names a column or another relation",
      )
    })
  })

  describe('name clashes', () => {
    it('a relation whose name is a column takes the next candidate, and is reported', () => {
      const posts = table(
        'posts',
        [id, column('author', 'string'), column('author_id', 'integer'), column('users', 'integer')],
        { foreignKeys: [fk('author_id', 'users')] },
      )
      const users = table('users', [id, column('posts', 'integer')])
      const result = relationMapFromSchema(snapshot(posts, users))
      expect(result.map['posts']?.relations).to.deep.equal({
        user: { type: 'belongsTo', table: 'users', foreignKey: 'author_id' },
      })
      expect(result.map['users']?.relations).to.deep.equal({
        posts_by_author_id: { type: 'hasMany', table: 'posts', foreignKey: 'author_id' },
      })
      expect(kinds(result)).to.deep.equal([
        "relation-name-clash posts: relation 'user' renamed, since 'author' names a column or another relation",
        "relation-name-clash users: relation 'posts_by_author_id' renamed, since 'posts' names a column or another relation",
      ])
    })

    it('falls back to a number when every candidate is taken', () => {
      const posts = table(
        'posts',
        [
          id,
          column('author', 'string'),
          column('user', 'string'),
          column('user_by_author_id', 'string'),
          column('author_id', 'integer'),
        ],
        {
          foreignKeys: [fk('author_id', 'users')],
        },
      )
      const { map } = relationMapFromSchema(snapshot(posts, table('users', [id])))
      expect(Object.keys(map['posts']?.relations ?? {})).to.deep.equal(['user_by_author_id_2'])
    })

    it('two columns with one client name in either spelling: the one spelled that way keeps it, the other a numbered name', () => {
      for (const naming of ['camel', 'as-is'] as const) {
        const result = relationMapFromSchema(
          snapshot(table('users', [id, column('userName', 'string'), column('user_name', 'string')])),
          { naming },
        )
        const wanted = naming === 'camel' ? 'userName' : 'user_name'
        expect(result.map['users']?.columns).to.deep.equal({
          id: 'integer',
          userName: 'string',
          [`${wanted}_2`]: { type: 'string', column: 'user_name' },
        })
        expect(kinds(result)).to.deep.equal([
          `column-name-clash users.user_name: declared as '${wanted}_2', since '${wanted}' names another column`,
        ])
        // A client may send either spelling, so the map may not hold both: this one passes the map check.
        expect(() => defineRelationMap(result.map)).not.to.throw()
      }
    })
  })

  describe('pruning', () => {
    const shop = (): SchemaSnapshot =>
      snapshot(
        table('tenants', [id, notNull('name', 'string')]),
        table(
          'customers',
          [
            id,
            notNull('tenant_id', 'integer'),
            column('email', 'string'),
            column('stripe_customer_id', 'string'),
            column('api_secret', 'string'),
            column('DeletedAt', 'datetime'),
          ],
          {
            foreignKeys: [fk('tenant_id', 'tenants')],
          },
        ),
        table(
          'orders',
          [id, notNull('tenant_id', 'integer'), notNull('customer_id', 'integer'), column('deleted_at', 'datetime')],
          {
            foreignKeys: [fk('tenant_id', 'tenants'), fk('customer_id', 'customers')],
          },
        ),
      )

    it('excludeColumns: names, table.column and * patterns across tables, case- and spelling-insensitive; a key column is kept', () => {
      const result = relationMapFromSchema(shop(), {
        excludeColumns: ['deleted_at', '*_secret', 'customers.stripe_*', '*.tenant_id', 'i*'],
      })
      expect(result.map['customers']?.columns).to.deep.equal({ id: 'integer', email: 'string' })
      expect(result.map['orders']?.columns).to.deep.equal({
        id: 'integer',
        customer_id: { type: 'integer', nullable: false },
      })
      expect(result.map['orders']?.relations?.['tenant']).to.deep.equal({
        type: 'belongsTo',
        table: 'tenants',
        foreignKey: 'tenant_id',
        required: true,
      })
      expect(kinds(result).filter((line) => line.startsWith('excluded-column'))).to.deep.equal([
        "excluded-column customers.id: kept although it matches 'i*': it is (part of) the primary key",
        "excluded-column customers.tenant_id: left out, excluded by '*.tenant_id'",
        "excluded-column customers.stripe_customer_id: left out, excluded by 'customers.stripe_*'",
        "excluded-column customers.api_secret: left out, excluded by '*_secret'",
        "excluded-column customers.DeletedAt: left out, excluded by 'deleted_at'",
        "excluded-column orders.id: kept although it matches 'i*': it is (part of) the primary key",
        "excluded-column orders.tenant_id: left out, excluded by '*.tenant_id'",
        "excluded-column orders.deleted_at: left out, excluded by 'deleted_at'",
        "excluded-column tenants.id: kept although it matches 'i*': it is (part of) the primary key",
      ])
      expect(() => defineRelationMap(result.map)).not.to.throw()
    })

    it('noInverse: no hasMany onto the table, the belongsTo stay, one notice; an unknown table is an Error', () => {
      const result = relationMapFromSchema(shop(), { noInverse: ['tenants'] })
      expect(result.map['tenants']?.relations).to.equal(undefined)
      expect(Object.keys(result.map['customers']?.relations ?? {})).to.deep.equal(['tenant', 'orders'])
      expect(Object.keys(result.map['orders']?.relations ?? {})).to.deep.equal(['customer', 'tenant'])
      expect(kinds(result).filter((line) => !line.startsWith('secret-column'))).to.deep.equal([
        'skipped-inverse tenants: no inverse relations (hasMany/hasOne) from customers.tenant_id, orders.tenant_id, as noInverse asks',
      ])
      expect(() => relationMapFromSchema(shop(), { noInverse: ['tenant'] })).to.throw(
        "options.noInverse: no table 'tenant' in the database (tables: customers, orders, tenants)",
      )
    })
  })

  describe('naming', () => {
    const chinook = snapshot(
      table('Album', [notNull('AlbumId', 'integer'), notNull('Title', 'string'), notNull('ArtistId', 'integer')], {
        primaryKey: ['AlbumId'],
        foreignKeys: [fk('ArtistId', 'Artist', 'ArtistId')],
      }),
      table('Artist', [notNull('ArtistId', 'integer'), column('Name', 'string')], { primaryKey: ['ArtistId'] }),
    )

    it('camel: camelCase client names with column: where the database spells them otherwise; keys stay database columns', () => {
      const { map } = relationMapFromSchema(chinook, { naming: 'camel' })
      expect(map).to.deep.equal({
        Album: {
          primaryKey: 'AlbumId',
          columns: {
            albumId: { type: 'integer', column: 'AlbumId' },
            title: { type: 'string', column: 'Title', nullable: false },
            artistId: { type: 'integer', column: 'ArtistId', nullable: false },
          },
          relations: { artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'ArtistId', required: true } },
        },
        Artist: {
          primaryKey: 'ArtistId',
          columns: { artistId: { type: 'integer', column: 'ArtistId' }, name: { type: 'string', column: 'Name' } },
          relations: { albums: { type: 'hasMany', table: 'Album', foreignKey: 'ArtistId' } },
        },
      })
    })

    it('snake: snake_case names; as-is (the default): the database names, relations from its words', () => {
      const snake = relationMapFromSchema(chinook, { naming: 'snake' }).map
      expect(snake['Album']?.columns).to.deep.equal({
        album_id: { type: 'integer', column: 'AlbumId' },
        title: { type: 'string', column: 'Title', nullable: false },
        artist_id: { type: 'integer', column: 'ArtistId', nullable: false },
      })
      expect(Object.keys(snake['Artist']?.relations ?? {})).to.deep.equal(['albums'])
      const asIs = relationMapFromSchema(chinook).map
      expect(asIs['Album']?.columns).to.deep.equal({
        AlbumId: 'integer',
        Title: { type: 'string', nullable: false },
        ArtistId: { type: 'integer', nullable: false },
      })
      expect(Object.keys(asIs['Album']?.relations ?? {})).to.deep.equal(['Artist'])
      expect(Object.keys(asIs['Artist']?.relations ?? {})).to.deep.equal(['Albums'])
    })

    it('camel relation names from snake_case tables and keys', () => {
      const lines = table('order_lines', [id, column('parent_order_id', 'integer')], {
        foreignKeys: [fk('parent_order_id', 'sales_orders')],
      })
      const { map } = relationMapFromSchema(snapshot(lines, table('sales_orders', [id])), { naming: 'camel' })
      expect(map['order_lines']?.relations).to.deep.equal({
        parentOrder: { type: 'belongsTo', table: 'sales_orders', foreignKey: 'parent_order_id' },
      })
      expect(map['sales_orders']?.relations).to.deep.equal({
        orderLines: { type: 'hasMany', table: 'order_lines', foreignKey: 'parent_order_id' },
      })
      expect(map['order_lines']?.columns).to.deep.equal({
        id: 'integer',
        parentOrderId: { type: 'integer', column: 'parent_order_id' },
      })
    })
  })

  describe('tables', () => {
    const schema = snapshot(
      table('knex_migrations', [id]),
      table('knex_migrations_lock', [notNull('index', 'integer')], { primaryKey: ['index'] }),
      table('posts', [id]),
      table('users', [id]),
    )

    it("leaves out knex's migration tables unless options.tables names them", () => {
      const result = relationMapFromSchema(schema)
      expect(Object.keys(result.map)).to.deep.equal(['posts', 'users'])
      expect(kinds(result)).to.deep.equal([
        "excluded-table knex_migrations: left out, knex's migration bookkeeping",
        "excluded-table knex_migrations_lock: left out, knex's migration bookkeeping",
      ])
      expect(Object.keys(relationMapFromSchema(schema, { tables: ['knex_migrations', 'users'] }).map)).to.deep.equal([
        'knex_migrations',
        'users',
      ])
    })

    it('options.tables keeps only those, options.exclude leaves those out; each left-out table is reported', () => {
      expect(Object.keys(relationMapFromSchema(schema, { tables: ['users'] }).map)).to.deep.equal(['users'])
      const result = relationMapFromSchema(schema, { exclude: ['users'] })
      expect(Object.keys(result.map)).to.deep.equal(['posts'])
      expect(kinds(result)).to.include('excluded-table users: left out, excluded')
    })

    it('a table name that the database lacks is a plain Error naming the option', () => {
      expect(() => relationMapFromSchema(schema, { tables: ['users', 'nope'] })).to.throw(
        Error,
        "options.tables: no table 'nope' in the database (tables: knex_migrations, knex_migrations_lock, posts, users)",
      )
      expect(() => relationMapFromSchema(schema, { exclude: ['Users'] })).to.throw(
        Error,
        "options.exclude: no table 'Users'",
      )
    })
  })

  it('is deterministic: the same map and notices every time, whatever order the foreign keys were read in', () => {
    const build = (reverse: boolean): SchemaSnapshot => {
      const keys = [fk('author_id', 'users'), fk('editor_id', 'users'), fk('category_id', 'categories')]
      return snapshot(
        table(
          'posts',
          [
            id,
            column('author_id', 'integer'),
            column('editor_id', 'integer'),
            column('category_id', 'integer'),
            column('password', 'string'),
          ],
          { foreignKeys: reverse ? keys.reverse() : keys },
        ),
        table('users', [id]),
        table('categories', [id]),
      )
    }
    const first = relationMapFromSchema(build(false), { naming: 'camel' })
    const again = relationMapFromSchema(build(false), { naming: 'camel' })
    const reversed = relationMapFromSchema(build(true), { naming: 'camel' })
    expect(JSON.stringify(again)).to.equal(JSON.stringify(first))
    expect(JSON.stringify(reversed)).to.equal(JSON.stringify(first))
    expect(Object.keys(first.map['posts']?.relations ?? {})).to.deep.equal(['author', 'category', 'editor'])
    expect(Object.keys(first.map['users']?.relations ?? {})).to.deep.equal(['postsByAuthorId', 'postsByEditorId'])
  })
})
