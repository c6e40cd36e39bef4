/** Loads and checks the example's users from a JSON file. */
import { readFileSync } from 'node:fs'

export interface User {
  id: number
  name: string
  email: string | null
  is_staff: boolean
  /** An ISO 8601 date-time, or null for a user who never logged in; only staff may see it. */
  last_login: string | null
  /** Null for a user without a profile; only staff may see the phone number. */
  profile: Profile | null
  /** What the user wrote, in id order; post ids are unique across users. */
  posts: Post[]
}

export interface Profile {
  city: string
  phone: string
}

export interface Post {
  id: number
  title: string
}

// A date-time as JSON Schema's `date-time` format has it (RFC 3339).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i

function describe (index: number, problem: string): string {
  return `user at index ${index} ${problem}`
}

function isRecord (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function checkUser (value: unknown, index: number): User {
  if (!isRecord(value)) throw new Error(describe(index, 'is not an object'))
  const user = value
  if (!Number.isInteger(user.id)) throw new Error(describe(index, 'has no integer "id"'))
  if (typeof user.name !== 'string') throw new Error(describe(index, 'has no string "name"'))
  if (user.email !== null && typeof user.email !== 'string') throw new Error(describe(index, 'has an "email" that is neither a string nor null'))
  if (typeof user.is_staff !== 'boolean') throw new Error(describe(index, 'has no boolean "is_staff"'))
  // Older files have no last_login: such a user never logged in.
  const lastLogin = user.last_login ?? null
  if (lastLogin !== null && (typeof lastLogin !== 'string' || !DATE_TIME.test(lastLogin) || Number.isNaN(Date.parse(lastLogin)))) {
    throw new Error(describe(index, 'has a "last_login" that is neither an ISO 8601 date-time nor null'))
  }
  // Older files have no profile and no posts either.
  const profile = user.profile ?? null
  if (profile !== null && !(isRecord(profile) && typeof profile.city === 'string' && typeof profile.phone === 'string')) {
    throw new Error(describe(index, 'has a "profile" that is neither null nor an object with a string "city" and a string "phone"'))
  }
  const posts = user.posts ?? []
  if (!Array.isArray(posts) || !posts.every((post) => isRecord(post) && Number.isInteger(post.id) && typeof post.title === 'string')) {
    throw new Error(describe(index, 'has "posts" that are not an array of objects with an integer "id" and a string "title"'))
  }
  return {
    id: user.id as number,
    name: user.name,
    email: user.email,
    is_staff: user.is_staff,
    last_login: lastLogin,
    profile: profile === null ? null : { city: profile.city as string, phone: profile.phone as string },
    posts: posts.map((post: Record<string, unknown>) => ({ id: post.id as number, title: post.title as string }))
  }
}

/** Reads a JSON array of users; throws an Error that names the file and the problem. */
export function loadUsers (file: string): User[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`Cannot read users file ${file}: ${(error as Error).message}`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new Error(`Users file ${file} is not valid JSON: ${(error as Error).message}`)
  }
  if (!Array.isArray(data)) throw new Error(`Users file ${file} must hold a JSON array of users`)
  try {
    return data.map(checkUser)
  } catch (error) {
    throw new Error(`Users file ${file}: ${(error as Error).message}`)
  }
}
