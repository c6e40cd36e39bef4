// Compiled by `npm run test:types`: the package's types over what Hey API's openapi-ts 0.99 writes
// from the example's anonymous document (generated/hey-api/types.gen.ts, its output as it is),
// as docs/typescript.md shows them.
import type { Restricted, RouteFields } from '../../lib/index.js'
import type { GetUserResponses, ListUsersData, ListUsersResponses, UserRestricted, UserVisible } from './generated/hey-api/types.gen.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
type Expect<T extends true> = T

type User = RouteFields<UserVisible, { summary: ['id', 'name'] }>
// An envelope: its keys as Hey API types them, its records complete.
type Page = RouteFields<Omit<ListUsersResponses[200], 'results'> & { results: UserVisible[] }, { summary: ['id', 'name'] }>

export type Card = Expect<Equal<Restricted<User, { only: ['@summary', 'email'] }>, { id: number, name: string, email: string | null }>>
export type Names = Expect<Equal<Restricted<Page, { only: ['name'] }>['results'], Array<{ name: string }>>>
// What Hey API gives alone: every response all-optional, the names of only as a union.
export type Alone = Expect<Equal<GetUserResponses[200], UserRestricted>>
export type Only = Expect<Equal<NonNullable<NonNullable<ListUsersData['query']>['only']>[number], 'id' | 'name' | 'email' | 'is_staff' | 'profile' | 'profile.city' | 'posts' | 'posts.id' | 'posts.title' | '*' | '@summary'>>
// @ts-expect-error the selection's names are the route's
export type Typo = Restricted<User, { only: ['nmae'] }>
