import { expect } from 'chai'
import { pluralWord, singularWord } from '../../lib/introspect/inflection.ts'
import { joinWords, nameWords, styledName } from '../../lib/introspect/name-words.ts'
import { foreignKeyStem, inflectedWords } from '../../lib/introspect/relation-names.ts'

describe('introspection naming: words, styles, singular and plural', () => {
  it('splits identifiers at underscores, hyphens and case changes', () => {
    expect(nameWords('author_id')).to.deep.equal(['author', 'id'])
    expect(nameWords('ArtistId')).to.deep.equal(['Artist', 'Id'])
    expect(nameWords('coverID')).to.deep.equal(['cover', 'ID'])
    expect(nameWords('HTTPStatusCode')).to.deep.equal(['HTTP', 'Status', 'Code'])
    expect(nameWords('line-item 2')).to.deep.equal(['line', 'item', '2'])
    expect(nameWords('address2_line')).to.deep.equal(['address2', 'line'])
  })

  it('spells names camel, snake or as-is', () => {
    expect(styledName('ArtistId', 'camel')).to.equal('artistId')
    expect(styledName('is_admin', 'camel')).to.equal('isAdmin')
    expect(styledName('HTTPStatus', 'camel')).to.equal('httpStatus')
    expect(styledName('ArtistId', 'snake')).to.equal('artist_id')
    expect(styledName('createdAt', 'snake')).to.equal('created_at')
    expect(styledName('ArtistId', 'as-is')).to.equal('ArtistId')
    expect(joinWords(['Albums', 'By', 'Artist', 'Id'], 'as-is')).to.equal('AlbumsByArtistId')
    expect(joinWords(['posts', 'by', 'author', 'id'], 'as-is')).to.equal('posts_by_author_id')
  })

  it('makes English words singular', () => {
    const cases: Array<[string, string]> = [
      ['users', 'user'],
      ['categories', 'category'],
      ['addresses', 'address'],
      ['boxes', 'box'],
      ['matches', 'match'],
      ['wishes', 'wish'],
      ['people', 'person'],
      ['children', 'child'],
      ['statuses', 'status'],
      ['status', 'status'],
      ['analyses', 'analysis'],
      ['days', 'day'],
      ['movies', 'movie'],
      ['news', 'news'],
      ['data', 'data'],
      ['Employees', 'Employee'],
      ['Album', 'Album'],
      ['CATEGORIES', 'CATEGORY'],
      ['class', 'class'],
      ['campus', 'campus'],
      ['leaves', 'leaf'],
      ['photos', 'photo'],
    ]
    for (const [plural, singular] of cases) expect(singularWord(plural), plural).to.equal(singular)
  })

  it('makes English words plural, leaving plural and uncountable words alone', () => {
    const cases: Array<[string, string]> = [
      ['user', 'users'],
      ['category', 'categories'],
      ['day', 'days'],
      ['address', 'addresses'],
      ['box', 'boxes'],
      ['match', 'matches'],
      ['person', 'people'],
      ['status', 'statuses'],
      ['bus', 'buses'],
      ['Album', 'Albums'],
      ['Track', 'Tracks'],
      ['users', 'users'],
      ['people', 'people'],
      ['data', 'data'],
      ['equipment', 'equipment'],
      ['ox', 'oxen'],
      ['photo', 'photos'],
      ['quiz', 'quizzes'],
    ]
    for (const [singular, plural] of cases) expect(pluralWord(singular), singular).to.equal(plural)
  })

  it('inflects the last word of a name, and strips a foreign key suffix', () => {
    expect(inflectedWords('order_items', 'singular')).to.deep.equal(['order', 'item'])
    expect(inflectedWords('PlaylistTrack', 'plural')).to.deep.equal(['Playlist', 'Tracks'])
    expect(inflectedWords('app_user', 'plural')).to.deep.equal(['app', 'users'])
    expect(foreignKeyStem('author_id')).to.deep.equal(['author'])
    expect(foreignKeyStem('ArtistId')).to.deep.equal(['Artist'])
    expect(foreignKeyStem('coverID')).to.deep.equal(['cover'])
    expect(foreignKeyStem('ReportsTo')).to.equal(undefined)
    expect(foreignKeyStem('id')).to.equal(undefined)
    expect(foreignKeyStem('paid')).to.equal(undefined)
  })
})
