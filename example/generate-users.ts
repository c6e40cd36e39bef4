/** Generates the example's deterministic set of users (`npm run example:users` writes users.json). */
import type { User } from './users.js'

const FIRST = ['Ada', 'Alan', 'Barbara', 'Claude', 'Donald', 'Edsger', 'Frances', 'Grace', 'Hedy', 'John',
  'Katherine', 'Ken', 'Leslie', 'Margaret', 'Niklaus', 'Radia', 'Shafi', 'Tim', 'Whitfield', 'Yukihiro']
const LAST = ['Lovelace', 'Turing', 'Liskov', 'Shannon', 'Knuth', 'Dijkstra', 'Allen', 'Hopper', 'Lamarr', 'Backus',
  'Johnson', 'Thompson', 'Lamport', 'Hamilton', 'Wirth', 'Perlman', 'Goldwasser', 'Berners-Lee', 'Diffie', 'Matsumoto']

/** Returns `count` users; the same count always gives the same users. */
export function generateUsers (count: number): User[] {
  const users: User[] = []
  for (let i = 0; i < count; i++) {
    const first = FIRST[i % FIRST.length]
    // 7 and 20 are coprime, so first and last names pair up differently on each pass.
    const last = LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length]
    const id = i + 1
    users.push({
      id,
      name: `${first} ${last}`,
      email: id % 9 === 0 ? null : `${first}.${last}.${id}@example.com`.toLowerCase(),
      is_staff: id % 10 === 1,
      // Every seventh user never logged in; the others at an hour 61 hours after the previous id's, from 2026 on.
      last_login: id % 7 === 0 ? null : new Date(Date.UTC(2026, 0, 1) + id * 61 * 3_600_000).toISOString()
    })
  }
  return users
}
