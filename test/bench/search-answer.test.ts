import { test } from 'tap'
import { namesOf } from '../../bench/search-answer.js'

test('the names a find_operations answer gives, in order: each entry\'s operation, then its twins, each once', async (t) => {
  const answer = [
    'activity_list-repo-events: /repos/{owner}/{repo}/events (List repository events) [activity]; also for ' +
      'organization: activity_list-org-events, own: activity_list-my-events',
    'activity_list-public-events: /events (List public events) [activity]',
    'meta_root: / [meta]',
    'activity_list-org-events: /orgs/{org}/events [activity]',
    '3 more match: use more words, or a higher limit.'
  ].join('\n')
  t.strictSame(namesOf(answer), [
    'activity_list-repo-events', 'activity_list-org-events', 'activity_list-my-events', 'activity_list-public-events', 'meta_root'
  ])
  t.strictSame(namesOf('No operation matches; 2 in all: try other words.'), [])
})
