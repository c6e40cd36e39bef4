/** The example's deterministic set of users (`npm run example:users` writes users.json). */
import type { User } from './users.js'

const FIRST = ['Ada', 'Alan', 'Barbara', 'Claude', 'Donald', 'Edsger', 'Frances', 'Grace', 'Hedy', 'John',
  'Katherine', 'Ken', 'Leslie', 'Margaret', 'Niklaus', 'Radia', 'Shafi', 'Tim', 'Whitfield', 'Yukihiro']
const LAST = ['Lovelace', 'Turing', 'Liskov', 'Shannon', 'Knuth', 'Dijkstra', 'Allen', 'Hopper', 'Lamarr', 'Backus',
  'Johnson', 'Thompson', 'Lamport', 'Hamilton', 'Wirth', 'Perlman', 'Goldwasser', 'Berners-Lee', 'Diffie', 'Matsumoto']
const CITIES = ['London', 'Cambridge', 'Zurich', 'Boston', 'Eindhoven', 'Tokyo', 'Berkeley', 'Princeton', 'Vienna', 'Oslo', 'Geneva']
const SUBJECTS = ['analytical engines', 'computable numbers', 'data abstraction', 'information theory', 'literate programming',
  'structured programming', 'compilers', 'frequency hopping', 'formal grammars', 'software reliability', 'routing', 'cryptography', 'hypertext']

/** How many posts a user has written, by the remainder of its id divided by 4. */
const POSTS_BY_ID = [2, 1, 0, 2]

/** Returns `count` users; the same count always gives the same users, and the first users of a larger count. */
export function generateUsers (count: number): User[] {
  const users: User[] = []
  let postId = 0
  for (let i = 0; i < count; i++) {
    const first = FIRST[i % FIRST.length]
    // 7 and 20 are coprime, so first and last names pair up differently on each pass.
    const last = LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length]
    const id = i + 1
    const posts: User['posts'] = []
    // Users 2, 6, 10... have written nothing, the others one post or two; post ids run on from user to user.
    for (let n = 0; n < POSTS_BY_ID[id % 4]; n++) {
      postId++
      posts.push({ id: postId, title: `${n === 0 ? 'Notes on' : 'More on'} ${SUBJECTS[(id + n * 5) % SUBJECTS.length]}` })
    }
    users.push({
      id,
      name: `${first} ${last}`,
      email: id % 9 === 0 ? null : `${first}.${last}.${id}@example.com`.toLowerCase(),
      is_staff: id % 10 === 1,
      // Every seventh user never logged in; the others at an hour 61 hours after the previous id's, from 2026 on.
      last_login: id % 7 === 0 ? null : new Date(Date.UTC(2026, 0, 1) + id * 61 * 3_600_000).toISOString(),
      // Every fifth user has no profile.
      profile: id % 5 === 0 ? null : { city: CITIES[(id * 3) % CITIES.length], phone: `+44 20 7946 ${String(id).padStart(4, '0')}` },
      posts
    })
  }
  return users
}
