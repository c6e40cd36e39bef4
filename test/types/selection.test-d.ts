// Compiled by `npm run test:types`: each `Expect<Equal<…>>` must hold exactly, and
// each line marked as an expected error must really be one.
import Fastify from 'fastify'
import type { FastifyTypeProviderDefault } from 'fastify'
import { Type } from '@fastify/type-provider-typebox'
import { Type as Type034 } from '@sinclair/typebox'
import type { Static, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { DeclaredPaths, Deferred, OnlyName, Restricted, RouteFields, RouteFieldsOf, RoutePaths, Selected } from '../../lib/index.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
type Expect<T extends true> = T

interface Tag { id: number, label: string }
interface Profile { city: string, phone?: string }
interface User {
  id: number
  name: string
  email: string | null
  nickname?: string
  readonly createdAt: Date
  profile: Profile | null
  tags: Tag[]
  scores: number[]
  point: [number, number]
  meta: { [key: string]: unknown }
}

// Paths: nested objects (nullable ones too), arrays of objects; leaves, tuples and maps have none.
export type Paths = Expect<Equal<DeclaredPaths<User>,
  'id' | 'name' | 'email' | 'nickname' | 'createdAt' | 'profile' | 'profile.city' | 'profile.phone' |
  'tags' | 'tags.id' | 'tags.label' | 'scores' | 'point' | 'meta'>>

// only: selected fields keep required-ness, nullability and readonly-ness; the rest is absent.
export type Names = Expect<Equal<Selected<User, 'id' | 'nickname' | 'createdAt'>, { id: number, nickname?: string, readonly createdAt: Date }>>
export type NullableNested = Expect<Equal<Selected<User, 'id' | 'profile.city'>, { id: number, profile: { city: string } | null }>>
export type Whole = Expect<Equal<Selected<User, 'profile' | 'profile.city'>, { profile: Profile | null }>>
export type ArrayItems = Expect<Equal<Selected<User, 'tags.label'>, { tags: Array<{ label: string }> }>>
export type Leaves = Expect<Equal<Selected<User, 'point' | 'meta' | 'scores'>, { point: [number, number], meta: { [key: string]: unknown }, scores: number[] }>>
export type Nothing = Expect<Equal<Selected<User, never>, {}>>
export type Records = Expect<Equal<Selected<User[], 'id'>, Array<{ id: number }>>>

// defer removes fields, nested paths included.
export type Defer = Expect<Equal<Deferred<{ id: number, profile: Profile | null, tags: Tag[] }, 'profile.phone' | 'tags.id'>,
  { id: number, profile: { city: string } | null, tags: Array<{ label: string }> }>>
export type DeferNothing = Expect<Equal<Deferred<Tag, never>, Tag>>

// Variants: each keeps what it has of the selection.
type Pet = { kind: 'cat', name: string, lives: number } | { kind: 'dog', name: string, barks: boolean }
export type PetPaths = Expect<Equal<DeclaredPaths<Pet>, 'kind' | 'name' | 'lives' | 'barks'>>
export type Variants = Expect<Equal<Selected<Pet, 'kind' | 'lives'>, { kind: 'cat', lives: number } | { kind: 'dog' }>>
export type DeferVariant = Expect<Equal<Deferred<Pet, 'name'>, { kind: 'cat', lives: number } | { kind: 'dog', barks: boolean }>>

// Variants that narrow to the same object are one object.
type Shape = { kind: 'a', id: number, x: string, a: string } | { kind: 'b', id: number, x: string, b: string }
export type Twins = Expect<Equal<Selected<Shape, 'id'>, { id: number }>>
export type TwinsDeferred = Expect<Equal<Deferred<Shape, 'kind' | 'a' | 'b'>, { id: number, x: string }>>
export type TwinsNested = Expect<Equal<Restricted<RouteFields<Array<{ id: number, shape: Shape }>>, { only: ['shape.id'] }>, Array<{ shape: { id: number } }>>>
export type TwinsUncertain = Expect<Equal<Restricted<RouteFields<Shape>, { only: ['id' | 'x'] }>, { id?: number, x?: string }>>
export type TwinsNotLiteral = Expect<Equal<Restricted<RouteFields<Shape, {}, 'id'>, { only: Array<'x'> }>, { id?: number, x?: string }>>
export type TwinsApart = Expect<Equal<Selected<Shape, 'id' | 'a'>, { id: number, a: string } | { id: number }>>

// allOf reads as an intersection: its members' fields together.
type Composed = { id: number } & { home: { city: string, zip: string } }
export type ComposedPaths = Expect<Equal<DeclaredPaths<Composed>, 'id' | 'home' | 'home.city' | 'home.zip'>>
export type ComposedSelected = Expect<Equal<Selected<Composed, 'home.zip'>, { home: { zip: string } }>>

// Recursion: paths stop at the depth limit, and selections below it keep the level whole.
interface Node { id: number, children: Node[] }
export type Depth2 = Expect<Equal<DeclaredPaths<Node, 2>, 'id' | 'children' | 'children.id' | 'children.children'>>
export type DeepSelection = Expect<Equal<Selected<Node, 'children.children.id'>, { children: Array<{ children: Array<{ id: number }> }> }>>
export type DeepPath = Expect<Equal<Extract<DeclaredPaths<Node>, 'children.children.children.children.children.children.children.id'>, 'children.children.children.children.children.children.children.id'>>
export type TooDeep = Expect<Equal<Extract<DeclaredPaths<Node>, 'children.children.children.children.children.children.children.children.id'>, never>>

// A route's sets, @default, * and defer, resolved as the plugin resolves them.
type Route = RouteFields<User, { summary: ['id', 'name'], place: ['profile.city'] }, 'id' | 'email'>
export type Summary = Expect<Equal<Restricted<Route, { only: ['@summary', 'profile.city'] }>, { id: number, name: string, profile: { city: string } | null }>>
export type Sets = Expect<Equal<Restricted<Route, { only: ['@place', 'nickname'] }>, { nickname?: string, profile: { city: string } | null }>>
export type Default = Expect<Equal<Restricted<Route, {}>, { id: number, email: string | null }>>
export type DefaultNamed = Expect<Equal<Restricted<Route, { only: ['@default', 'name'], defer: ['email'] }>, { id: number, name: string }>>
export type Star = Expect<Equal<Restricted<Route, { only: ['*'], defer: ['profile', 'tags', 'scores', 'point', 'meta', 'createdAt'] }>, { id: number, name: string, email: string | null, nickname?: string }>>
export type EveryField = Expect<Equal<Restricted<RouteFields<Tag>, {}>, { id: number, label: string }>>
export type OnlyNames = Expect<Equal<OnlyName<RouteFields<Tag, { short: ['id'] }>>, 'id' | 'label' | '*' | '@default' | '@short'>>

// Wrong selections do not compile: an undeclared name, a path below a scalar, an unknown set, a set in defer.
// @ts-expect-error 'nmae' is not declared
export type Typo = Restricted<Route, { only: ['nmae'] }>
// @ts-expect-error 'id' holds no fields
export type BelowScalar = Restricted<Route, { only: ['id.x'] }>
// @ts-expect-error there is no set '@nope'
export type UnknownSet = Restricted<Route, { only: ['@nope'] }>
// @ts-expect-error defer takes field names only
export type SetInDefer = Restricted<Route, { defer: ['@summary'] }>
// @ts-expect-error a path into a map or a tuple is not declared
export type IntoMap = Restricted<Route, { only: ['meta.x'] }>

// The narrowed type is what a client may read: a field that was not selected is not there.
declare const summary: Restricted<Route, { only: ['@summary'] }>
export const name: string = summary.name
// @ts-expect-error email was not selected
export const email = summary.email

// Server side: where a type provider gives the route's reply type, request.restrictedFields knows its paths.
const typebox = Fastify().withTypeProvider<TypeBoxTypeProvider>()
const TypeBoxUser = Type.Object({ id: Type.Integer(), profile: Type.Union([Type.Object({ city: Type.String() }), Type.Null()]) })
typebox.get('/users', {
  restrictFields: true,
  schema: {
    response: {
      200: Type.Object({ count: Type.Integer(), results: Type.Array(TypeBoxUser) }),
      400: Type.Object({ message: Type.String() })
    }
  }
}, async (request) => {
  const has: boolean = request.restrictedFields.has('profile.city')
  // @ts-expect-error 'profile.cty' is not declared
  request.restrictedFields.has('profile.cty')
  // @ts-expect-error the 400 body's fields are not paths
  request.restrictedFields.has('message')
  const fields: ReadonlyArray<'id' | 'profile'> = request.restrictedFields.fields
  const paths: ReadonlyArray<'id' | 'profile' | 'profile.city'> = request.restrictedFields.paths
  return { count: has ? fields.length : paths.length, results: [] }
})
// The route's default fields and field sets are its declared paths.
const typeboxPage = { response: { 200: Type.Object({ count: Type.Integer(), results: Type.Array(TypeBoxUser) }) } }
typebox.get('/defaults', { restrictFields: { defaultFields: ['id', 'profile.city'], fieldSets: { place: ['profile', 'profile.city'] } }, schema: typeboxPage }, async () => ({ count: 0, results: [] }))
// @ts-expect-error 'nmae' is not declared
typebox.get('/typo', { restrictFields: { defaultFields: ['id', 'nmae'] }, schema: typeboxPage }, async () => ({ count: 0, results: [] }))
// @ts-expect-error 'profile.cty' is not declared
typebox.get('/set-typo', { restrictFields: { fieldSets: { place: ['profile.cty'] } }, schema: typeboxPage }, async () => ({ count: 0, results: [] }))
// A plain JSON Schema route says nothing to the types: any name compiles, and the plugin checks it at declaration.
Fastify().get('/plain', { restrictFields: { defaultFields: ['anything'] }, schema: { response: { 200: { type: 'object' } } } }, async () => ({}))
const zod = Fastify().withTypeProvider<ZodTypeProvider>()
zod.get('/pets', {
  restrictFields: true,
  schema: { response: { 200: z.array(z.discriminatedUnion('kind', [z.object({ kind: z.literal('cat'), lives: z.number() }), z.object({ kind: z.literal('dog'), barks: z.boolean() })])) } }
}, async (request) => {
  request.restrictedFields.has('lives')
  // @ts-expect-error 'meows' is not declared
  request.restrictedFields.has('meows')
  return []
})
// Without a type provider the types say nothing of the fields: any path compiles.
Fastify().get('/plain', { restrictFields: true, schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, async (request) => {
  const path: string = String(request.query)
  return { id: request.restrictedFields.has(path) ? 1 : 0 }
})
export type PlainPaths = Expect<Equal<RoutePaths<FastifyTypeProviderDefault, { response: { 200: { type: 'object' } } }>, string>>
export type NoSchema = Expect<Equal<RoutePaths<TypeBoxTypeProvider, {}>, string>>

// Unions: without `only`, and with `*`, each variant keeps all of its own fields.
export type PetDefault = Expect<Equal<Restricted<RouteFields<Pet>, {}>, Pet>>
export type PetStar = Expect<Equal<Restricted<RouteFields<Pet>, { only: ['*'] }>, Pet>>
export type PetStarDefer = Expect<Equal<Restricted<RouteFields<Pet[]>, { only: ['*'], defer: ['name'] }>,
  Array<{ kind: 'cat', lives: number } | { kind: 'dog', barks: boolean }>>>
export type PetDefaultFields = Expect<Equal<Restricted<RouteFields<Pet, {}, 'kind' | 'barks'>, {}>, { kind: 'cat' } | { kind: 'dog', barks: boolean }>>

// A reply type is read as the route reads it: an array's items, an envelope's records, a nullable record.
interface Small { id: number, name: string }
interface Page { count: number, next: string | null, results: Small[] }
export type ArrayReply = Expect<Equal<Restricted<RouteFields<Small[]>, { only: ['id'] }>, Array<{ id: number }>>>
export type ArrayDefault = Expect<Equal<Restricted<RouteFields<readonly Small[]>, {}>, Array<{ id: number, name: string }>>>
export type NullableReply = Expect<Equal<Restricted<RouteFields<Small | null>, { only: ['name'] }>, { name: string } | null>>
export type EnvelopeReply = Expect<Equal<Restricted<RouteFields<Page>, { only: ['id'] }>, { count: number, next: string | null, results: Array<{ id: number }> }>>
export type EnvelopePaths = Expect<Equal<OnlyName<RouteFields<Page>>, 'id' | 'name' | '*' | '@default'>>
export type OtherKey = Expect<Equal<Restricted<RouteFields<{ total?: number, items: Small[] | null }, {}, never, 'items'>, { defer: ['id'] }>,
  { total?: number, items: Array<{ name: string }> | null }>>
// A record with a `results` field that is no list, and a union, are records, as the plugin reads them.
export type NotAnEnvelope = Expect<Equal<Restricted<RouteFields<{ id: number, results: string }>, { only: ['results'] }>, { results: string }>>
export type UnionNotEnvelope = Expect<Equal<RouteFields<{ results: Small[] } | { results: Small[], id: number }>['records'], 'object'>>
// @ts-expect-error the envelope's own keys are not fields of its records
export type EnvelopeKey = Restricted<RouteFields<Page>, { only: ['count'] }>
// @ts-expect-error a reply of strings holds no records
export type StringsRefused = Restricted<RouteFields<string[]>, {}>
// @ts-expect-error a scalar reply holds no records
export type ScalarRefused = OnlyName<RouteFields<number>>

// Selected and Deferred accept declared paths only.
export type SelectedDeclared = Expect<Equal<Selected<User, 'id' | 'profile.city'>, { id: number, profile: { city: string } | null }>>
// @ts-expect-error 'profile.cty' is not declared
export type SelectedTypo = Selected<User, 'id' | 'profile.cty'>
// @ts-expect-error 'emial' is not declared
export type DeferredTypo = Deferred<User, 'emial'>
// @ts-expect-error a path into a map is not declared
export type DeferredIntoMap = Deferred<User, 'meta.x'>

// An object with known properties and an index signature (a loose object) is selected by its known properties.
interface Loose { id: number, profile: { city: string, zip?: string, [key: string]: unknown } }
export type LoosePaths = Expect<Equal<DeclaredPaths<Loose>, 'id' | 'profile' | 'profile.city' | 'profile.zip'>>
export type LooseSelected = Expect<Equal<Selected<Loose, 'profile.city'>, { profile: { city: string } }>>
export type LooseWhole = Expect<Equal<Selected<Loose, 'profile'>, { profile: Loose['profile'] }>>
export type LooseDeferred = Expect<Equal<Deferred<Loose, 'profile.city'>, { id: number, profile: { zip?: string, [key: string]: unknown } }>>
const zodLoose = Fastify().withTypeProvider<ZodTypeProvider>()
zodLoose.get('/loose', {
  restrictFields: { defaultFields: ['profile.city'] },
  schema: { response: { 200: z.object({ id: z.number(), profile: z.looseObject({ city: z.string() }) }) } }
}, async (request) => {
  request.restrictedFields.has('profile.city')
  // @ts-expect-error only the known properties are declared
  request.restrictedFields.has('profile.zip')
  return { id: 1, profile: { city: 'London' } }
})

// A client sharing the schemas reads a route's sets, default fields and records from the route's own declaration.
const Card = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  profile: Type.Object({ city: Type.String() })
})
const listCards = {
  restrictFields: { defaultFields: ['id', 'name'], fieldSets: { place: ['id', 'profile.city'] } },
  schema: { response: { 200: Type.Object({ count: Type.Integer(), results: Type.Array(Card) }) } }
} as const
typebox.get('/cards', listCards, async () => ({ count: 0, results: [] }))
type Cards = RouteFieldsOf<typeof listCards, TypeBoxTypeProvider, { summary: ['id'], place: ['name'] }>
export type CardsDefault = Expect<Equal<Restricted<Cards, {}>, { count: number, results: Array<{ id: number, name: string }> }>>
export type CardsSets = Expect<Equal<Restricted<Cards, { only: ['@place', '@summary', 'email'] }>, { count: number, results: Array<{ id: number, email: string | null, profile: { city: string } }> }>>
export type CardsNames = Expect<Equal<OnlyName<Cards>, DeclaredPaths<Static<typeof Card>> | '*' | '@default' | '@place' | '@summary'>>
// @ts-expect-error the route has no set '@card'
export type CardsUnknownSet = Restricted<Cards, { only: ['@card'] }>
const getCard = { config: { restrictFields: true }, schema: { response: { 200: Card } } } as const
typebox.get('/cards/:id', getCard, async () => ({ id: 1, name: 'Ada', email: null, profile: { city: 'London' } }))
export type CardEvery = Expect<Equal<Restricted<RouteFieldsOf<typeof getCard, TypeBoxTypeProvider>, { defer: ['profile'] }>, { id: number, name: string, email: string | null }>>
export const zodItems = { restrictFields: { resultsKey: 'items', defaultFields: ['kind'] }, schema: { response: { 200: z.object({ items: z.array(z.object({ kind: z.string(), size: z.number().optional() })) }) } } } as const
zod.get('/zod-items', zodItems, async () => ({ items: [] }))

// The route's records where its config says they are, as the plugin finds them: under its resultsKey, not the envelope's keys.
const TypeBoxTag = Type.Object({ label: Type.String() })
typebox.get('/items', {
  config: { restrictFields: { resultsKey: 'items' } },
  schema: { response: { 200: Type.Object({ total: Type.Integer(), items: Type.Array(TypeBoxUser) }) } }
}, async (request) => {
  const city: boolean = request.restrictedFields.has('profile.city')
  // @ts-expect-error the envelope's own keys are not paths
  request.restrictedFields.has('total')
  // @ts-expect-error the records' fields are named from the records
  request.restrictedFields.has('items.id')
  const fields: ReadonlyArray<'id' | 'profile'> = request.restrictedFields.fields
  return { total: city ? fields.length : 0, items: [] }
})
export const TypeBoxTagged = Type.Object({ labels: Type.Array(Type.String()), items: Type.Array(TypeBoxUser) })
export const TypeBoxLabels = Type.Object({ labels: Type.Array(Type.String()), total: Type.Integer() })
// Declared as const, the key is known exactly, among several arrays; maxDepth bounds the paths.
const taggedItems = {
  config: { restrictFields: { resultsKey: 'items', maxDepth: 1 } },
  schema: { response: { 200: Type.Object({ tags: Type.Array(TypeBoxTag), items: Type.Array(TypeBoxUser) }) } }
} as const
typebox.get('/tagged', taggedItems, async (request) => {
  const profile: boolean = request.restrictedFields.has('profile')
  // @ts-expect-error below maxDepth 1, profile is a leaf
  request.restrictedFields.has('profile.city')
  // @ts-expect-error the tags are not the records
  request.restrictedFields.has('label')
  return { tags: [], items: profile ? [] : [] }
})
export type TaggedPaths = Expect<Equal<RoutePaths<TypeBoxTypeProvider, typeof taggedItems.schema, typeof taggedItems.config>, 'id' | 'profile'>>
export type ShallowShared = Expect<Equal<OnlyName<RouteFieldsOf<typeof taggedItems, TypeBoxTypeProvider>>, 'id' | 'profile' | '*' | '@default'>>
// A resultsKey given beside the schema is carried to the request's type, as the plugin reads it: the records' paths, not the envelope's.
const TypeBoxTask = Type.Object({ id: Type.Integer(), status: Type.String(), owner: Type.Object({ name: Type.String() }) })
const taskPage = { response: { 200: Type.Object({ total: Type.Integer(), tasks: Type.Array(TypeBoxTask) }) } }
typebox.get('/tasks', { restrictFields: { resultsKey: 'tasks' }, schema: taskPage }, async (request) => {
  const status: boolean = request.restrictedFields.has('status')
  // @ts-expect-error the records' fields are named from the records
  request.restrictedFields.has('tasks.status')
  // @ts-expect-error the envelope's own keys are not paths
  request.restrictedFields.has('total')
  const fields: ReadonlyArray<'id' | 'status' | 'owner'> = request.restrictedFields.fields
  return { total: status ? fields.length : 0, tasks: [] }
})
// @sinclair/typebox's schemas, through the same provider, alike.
const Task034 = Type034.Object({ id: Type034.Integer(), status: Type034.String() })
typebox.get('/tasks034', { restrictFields: { resultsKey: 'tasks' }, schema: { response: { 200: Type034.Object({ total: Type034.Integer(), tasks: Type034.Array(Task034) }) } } }, async (request) => {
  const status: boolean = request.restrictedFields.has('status')
  // @ts-expect-error the records' fields are named from the records
  request.restrictedFields.has('tasks.status')
  return { total: status ? 1 : 0, tasks: [] }
})
// Its default fields, sets and maxDepth are read there too, as are the route's own hooks and a handler among the options.
typebox.get('/beside', { restrictFields: { resultsKey: 'tasks', defaultFields: ['owner.name'], fieldSets: { state: ['id', 'status'] } }, schema: taskPage }, async () => ({ total: 0, tasks: [] }))
// @ts-expect-error the records' fields are named from the records
typebox.get('/beside-typo', { restrictFields: { resultsKey: 'tasks', defaultFields: ['tasks.id'] }, schema: taskPage }, async () => ({ total: 0, tasks: [] }))
typebox.get('/shallow-tasks', {
  restrictFields: { resultsKey: 'tasks', maxDepth: 1 },
  schema: taskPage,
  preHandler: async (request) => {
    request.restrictedFields.has('owner')
    // @ts-expect-error below maxDepth 1, owner is a leaf
    request.restrictedFields.has('owner.name')
  },
  handler: async (request) => ({ total: request.restrictedFields.has('status') ? 1 : 0, tasks: [] })
})
typebox.route({
  method: 'GET',
  url: '/routed-tasks',
  restrictFields: { resultsKey: 'tasks' },
  config: { audit: true },
  schema: taskPage,
  handler: async (request) => {
    const audit: boolean = request.routeOptions.config.audit
    // @ts-expect-error the envelope's own keys are not paths
    request.restrictedFields.has('total')
    return { total: audit && request.restrictedFields.has('owner.name') ? 1 : 0, tasks: [] }
  }
})
// Options whose type may hold a resultsKey the types do not know: the records of every array of records the reply holds.
declare const someKey: { resultsKey?: string }
typebox.get('/some-key', { restrictFields: someKey, schema: taskPage }, async (request) => {
  request.restrictedFields.has('owner.name')
  // @ts-expect-error the records' fields are named from the records
  request.restrictedFields.has('tasks.status')
  return { total: 0, tasks: [] }
})
// With the route's type arguments written out, Fastify infers no schema: any path compiles.
typebox.get<{ Querystring: { page: string } }>('/written-out', { restrictFields: { resultsKey: 'tasks' } }, async (request) => {
  const page: string = request.query.page
  return { page: request.restrictedFields.has(page) }
})
export type ZodItems = Expect<Equal<Restricted<RouteFieldsOf<typeof zodItems, ZodTypeProvider>, {}>, { items: Array<{ kind: string }> }>>

// A list whose names are not a literal may send any of them, or none: every field optional, at every depth.
interface Deep { id: number, name: string, profile: { city: string, geo: { lat: number } } | null }
export type NotLiteral = Expect<Equal<Restricted<RouteFields<Deep[]>, { only: Array<'id' | 'profile.city'> }>,
  Array<{ id?: number, name?: string, profile?: { city?: string, geo?: { lat?: number } } | null }>>>
export type NotLiteralWithDefaults = Expect<Equal<Restricted<RouteFields<Deep, {}, 'name'>, { only: Array<'id'> }>, { id?: number, name?: string }>>
export type DeferNotLiteral = Expect<Equal<Restricted<RouteFields<Deep>, { only: ['id', 'name'], defer: Array<'name'> }>, { id?: number, name?: string }>>
// A name typed as a union (`[which]`) sends one of its members: a field that only such names keep, or leave out, is optional.
export type UnionName = Expect<Equal<Restricted<Route, { only: ['id' | 'name'] }>, { id?: number, name?: string }>>
export type UnionBeside = Expect<Equal<Restricted<Route, { only: ['name', '@summary' | 'email'] }>, { name: string, id?: number, email?: string | null }>>
export type UnionStar = Expect<Equal<Restricted<RouteFields<Tag>, { only: ['id', '*' | 'id'] }>, { id: number, label?: string }>>
// Reached by one uncertain path only, a field holds that path when it is sent; by several, any of them.
export type UnionNested = Expect<Equal<Restricted<RouteFields<Deep[]>, { only: ['id', 'profile.geo.lat' | 'name'] }>,
  Array<{ id: number, name?: string, profile?: { geo: { lat: number } } | null }>>>
export type UnionNestedTwo = Expect<Equal<Restricted<RouteFields<Deep>, { only: ['profile.city' | 'profile.geo'] }>,
  { profile?: { city?: string, geo?: { lat: number } } | null }>>
export type UnionWhole = Expect<Equal<Restricted<RouteFields<Deep>, { only: ['profile.city', 'profile' | 'id'] }>,
  { id?: number, profile: { city: string, geo?: { lat: number } } | null }>>
export type UnionArray = Expect<Equal<Restricted<Route, { only: ['tags.label' | 'id'] }>, { id?: number, tags?: Array<{ label: string }> }>>
export type UnionVariants = Expect<Equal<Restricted<RouteFields<Pet>, { only: ['kind', 'lives' | 'barks'] }>, { kind: 'cat', lives?: number } | { kind: 'dog', barks?: boolean }>>
export type UnionDefer = Expect<Equal<Restricted<RouteFields<Deep>, { defer: ['profile.city' | 'name'] }>,
  { id: number, name?: string, profile: { city?: string, geo: { lat: number } } | null }>>
export type UnionDeferBeside = Expect<Equal<Restricted<Route, { only: ['@summary', 'email'], defer: ['email', 'id' | 'name'] }>, { id?: number, name?: string }>>
// A list written as a condition (`flag ? ['id'] : ['id', 'name']`) sends one of its branches: a field one branch may leave out is optional.
export type Branches = Expect<Equal<Restricted<RouteFields<Deep[]>, { only: ['id'] | ['id', 'name'] }>, Array<{ id: number, name?: string }>>>
export type BranchOrDefault = Expect<Equal<Restricted<RouteFields<Deep, {}, 'name'>, { only: ['id'] | undefined }>, { id?: number, name?: string }>>
export type BranchOrEmpty = Expect<Equal<Restricted<RouteFields<Deep, {}, 'name'>, { only: ['id', 'name'] | [] }>, { name: string, id?: number }>>
export type BranchSets = Expect<Equal<Restricted<Route, { only: ['@summary'] | ['id', 'email'] }>, { id: number, name?: string, email?: string | null }>>
export type BranchesNested = Expect<Equal<Restricted<RouteFields<Deep>, { only: ['profile.city'] | ['profile.geo'] }>,
  { profile?: { city?: string, geo?: { lat: number } } | null }>>
export type BranchDeeper = Expect<Equal<Restricted<RouteFields<Deep>, { only: ['id', 'profile.city'] | ['id'] }>, { id: number, profile?: { city: string } | null }>>
export type BranchUnionName = Expect<Equal<Restricted<Route, { only: ['id'] | ['name' | 'id'] }>, { id?: number, name?: string }>>
export type BranchDefer = Expect<Equal<Restricted<RouteFields<Deep>, { only: ['id', 'name'], defer: ['name'] | ['id', 'name'] }>, { id?: number }>>
export type BranchDeferOrNothing = Expect<Equal<Restricted<RouteFields<Deep>, { only: ['id', 'name'], defer: ['name'] | undefined }>, { id: number, name?: string }>>
// @ts-expect-error a union's members are checked as any other name
export type UnionTypo = Restricted<Route, { only: ['id' | 'nmae'] }>
// An empty list is not sent: the route's default fields.
export type EmptyOnly = Expect<Equal<Restricted<RouteFields<Deep, {}, 'name'>, { only: [] }>, { name: string }>>
// A route's maxDepth bounds the paths its names accept; a field at that depth is kept whole.
type Shallow = RouteFields<Deep, {}, never, 'results', 2>
export type ShallowPaths = Expect<Equal<OnlyName<Shallow>, 'id' | 'name' | 'profile' | 'profile.city' | 'profile.geo' | '*' | '@default'>>
export type ShallowWhole = Expect<Equal<Restricted<Shallow, { only: ['profile.geo'] }>, { profile: { geo: { lat: number } } | null }>>
// @ts-expect-error profile.geo.lat is deeper than maxDepth 2
export type BelowMaxDepth = Restricted<Shallow, { only: ['profile.geo.lat'] }>
export type DeepEnough = Restricted<RouteFields<Deep>, { only: ['profile.geo.lat'] }>
// A resultsKey known only as a string: the records of every array of records the reply holds, the reply itself without one.
export type AnyKey = Expect<Equal<RoutePaths<TypeBoxTypeProvider, { response: { 200: typeof TypeBoxTagged } }, { restrictFields: { resultsKey: string } }>, 'id' | 'profile' | 'profile.city'>>
export type NoRecords = Expect<Equal<RoutePaths<TypeBoxTypeProvider, { response: { 200: typeof TypeBoxLabels } }, { restrictFields: { resultsKey: string } }>, 'labels' | 'total'>>
