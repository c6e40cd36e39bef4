/** The benchmark's records: 10 fields, one nested object, one array of objects. */

export const recordSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: 'string' },
    age: { type: 'integer' },
    active: { type: 'boolean' },
    score: { type: 'number' },
    created: { type: 'string' },
    role: { type: 'string' },
    profile: { type: 'object', properties: { city: { type: 'string' }, phone: { type: 'string' }, zip: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, label: { type: 'string' } } } }
  }
}

export const TOP_LEVEL_FIELDS = Object.keys(recordSchema.properties)

const [firstHalf, secondHalf] = [TOP_LEVEL_FIELDS.slice(0, 5), TOP_LEVEL_FIELDS.slice(5)].map((names) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, recordSchema.properties[name as keyof typeof recordSchema.properties]]))
}))

/** The same record declared as the allOf of two halves, the way OpenAPI inheritance writes it. */
export const allOfRecordSchema = { allOf: [firstHalf, secondHalf] }

/** The same record as two variants told apart by `kind`, each with every field. */
export const oneOfRecordSchema = {
  oneOf: ['a', 'b'].map((kind) => ({
    type: 'object',
    required: ['kind'],
    properties: { kind: { const: kind }, ...recordSchema.properties }
  })),
  discriminator: { propertyName: 'kind' }
}

/** The two fields every restricted variant returns. */
export const SELECTED = ['id', 'name']

/**
 * What the visibility rule of the rule variant hides from every request: one
 * of the fields the measured request does not select, so that its response
 * is the same bytes as the same request on a route without a rule.
 */
export const HIDDEN_BY_RULE: readonly string[] = ['email']

export const twoFieldSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' } }
}

export function makeRecords (count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `User number ${i + 1}`,
    email: `user${i + 1}@example.com`,
    age: 20 + (i % 50),
    active: i % 3 !== 0,
    score: Math.round(i * 137.5) / 10,
    created: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
    role: i % 10 === 0 ? 'admin' : 'member',
    profile: { city: `City ${i % 17}`, phone: `+47 ${10_000_000 + i}`, zip: String(1000 + i) },
    tags: [{ id: i * 2, label: 'alpha' }, { id: i * 2 + 1, label: 'beta' }]
  }))
}

/**
 * Field sets of two and three top-level fields (165 in all), in a fixed order:
 * cycled through, each one comes back only after more distinct sets than the
 * plugin's default cache remembers, so every request is a set "not seen before".
 */
export function churnSelections (): string[] {
  const sets: string[] = []
  const n = TOP_LEVEL_FIELDS.length
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      sets.push(`${TOP_LEVEL_FIELDS[a]},${TOP_LEVEL_FIELDS[b]}`)
      for (let c = b + 1; c < n; c++) sets.push(`${TOP_LEVEL_FIELDS[a]},${TOP_LEVEL_FIELDS[b]},${TOP_LEVEL_FIELDS[c]}`)
    }
  }
  return sets
}

/** The cache size of the route that the recurring field sets are sent to. */
export const SEEN_AGAIN_CACHE_SIZE = 100

/**
 * The 512 field sets that keep `id` (with every subset of the other nine
 * top-level fields), in a fixed shuffled order, so that sizes and nested
 * fields are spread over the cycle. Cycled through on a route whose caches
 * hold SEEN_AGAIN_CACHE_SIZE entries, each set comes back every 512 requests:
 * seen again, but never more often than the others.
 *
 * What the caches' admission does with it: the memo of query strings admits
 * a set from its second sighting and fills with 100 of them. The serializer
 * cache compiles a set only when it makes up 1/32 of the route's restricted
 * replies, which no set of the cycle does: every set is written, and the
 * parse of four sets in five is made on every request.
 */
export function seenAgainSelections (): string[] {
  const others = TOP_LEVEL_FIELDS.filter((field) => field !== 'id')
  const sets = Array.from({ length: 2 ** others.length }, (_, mask) =>
    ['id', ...others.filter((_field, bit) => (mask & (1 << bit)) !== 0)].join(','))
  // Fisher–Yates with a fixed-seed Park–Miller generator: the same order on every run.
  let seed = 42
  for (let i = sets.length - 1; i > 0; i--) {
    seed = (seed * 48271) % 2147483647
    const j = seed % (i + 1);
    [sets[i], sets[j]] = [sets[j], sets[i]]
  }
  return sets
}

/**
 * The users of the envelope workloads: 10 fields, every one required, an
 * `address` object of three strings and a `tags` array of `{ id, label }`.
 */
export const userSchema = {
  type: 'object',
  required: ['id', 'name', 'email', 'is_staff', 'created_at', 'score', 'login_count', 'phone', 'address', 'tags'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: 'string' },
    is_staff: { type: 'boolean' },
    created_at: { type: 'string' },
    score: { type: 'number' },
    login_count: { type: 'integer' },
    phone: { type: 'string' },
    address: { type: 'object', required: ['street', 'city', 'zip'], properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'object', required: ['id', 'label'], properties: { id: { type: 'integer' }, label: { type: 'string' } } } }
  }
}

export const USER_FIELDS = Object.keys(userSchema.properties)

/** A schema without any `required`, at any level: what the naive copy's route declares, so that a copy of some fields is written. */
export function withoutRequired (schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired)
  if (schema === null || typeof schema !== 'object') return schema
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'required').map(([key, value]) => [key, withoutRequired(value)]))
}

/** A page envelope around `items`: `count`, `next`, `previous` (nullable) and `results`, with the given keys required. */
export function envelopeSchema (items: unknown, required: readonly string[]): Record<string, unknown> {
  return {
    type: 'object',
    required,
    properties: {
      count: { type: 'integer' },
      next: { type: ['string', 'null'] },
      previous: { type: ['string', 'null'] },
      results: { type: 'array', items }
    }
  }
}

export function makeUsers (count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `User number ${i + 1}`,
    email: `user${i + 1}@example.com`,
    is_staff: i % 7 === 0,
    created_at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
    score: Math.round(i * 137.5) / 10,
    login_count: i * 3,
    phone: `+47 ${10_000_000 + i}`,
    address: { street: `${i + 1} Main Street`, city: `City ${i % 17}`, zip: String(1000 + i) },
    tags: [{ id: i * 2, label: 'alpha' }, { id: i * 2 + 1, label: 'beta' }]
  }))
}

/**
 * Records as an ORM hands them over (a Mongoose document, a Sequelize
 * instance): objects whose `toJSON()` gives their fields, which
 * fast-json-stringify writes in their place. The fields are readable on the
 * object too, as an ORM's getters make them, for the naive copy.
 */
export function asDocuments (records: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return records.map((fields) => Object.defineProperty({ ...fields }, 'toJSON', { value: function toJSON () { return fields } }))
}

/** A fixed shuffle (Fisher–Yates with a fixed-seed Park–Miller generator): the same order on every run. */
function shuffled<T> (items: T[], seed = 42): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    seed = (seed * 48271) % 2147483647
    const j = seed % (i + 1);
    [items[i], items[j]] = [items[j], items[i]]
  }
  return items
}

/** The 512 lists of the users' rotation: `id` and each subset of the other nine fields, as one comma list, in a fixed shuffled order. */
export function userLists (): string[] {
  const others = USER_FIELDS.filter((field) => field !== 'id')
  return shuffled(Array.from({ length: 2 ** others.length }, (_, mask) => ['id', ...others.filter((_field, bit) => (mask & (1 << bit)) !== 0)].join(',')))
}

/**
 * The 512 nested lists: `id`, each subset of the seven flat fields, with or
 * without `address.city`, with or without `tags.label`; so
 * `id,address.city,tags.label` comes round among the others.
 */
export function nestedUserLists (): string[] {
  const flat = USER_FIELDS.filter((field) => field !== 'id' && field !== 'address' && field !== 'tags')
  const lists: string[] = []
  for (let mask = 0; mask < 2 ** flat.length; mask++) {
    for (const nested of [[], ['address.city'], ['tags.label'], ['address.city', 'tags.label']]) {
      lists.push(['id', ...flat.filter((_field, bit) => (mask & (1 << bit)) !== 0), ...nested].join(','))
    }
  }
  return shuffled(lists)
}

/**
 * The wide record: 60 fields over three levels, with arrays of objects. Its
 * top level has 20 scalars, two objects (`profile`, `billing`: 8 scalars and an
 * object of 4), and two arrays of objects (`orders`: 6 scalars and an object
 * of 2; `sessions`: 4 scalars).
 */
export const wideSchema = (() => {
  const scalars = (prefix: string, count: number): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, i % 3 === 0 ? { type: 'integer' } : i % 3 === 1 ? { type: 'string' } : { type: 'boolean' }]))
  const object = (properties: Record<string, unknown>) => ({ type: 'object', properties })
  return object({
    id: { type: 'integer' },
    ...scalars('f', 19),
    profile: object({ ...scalars('p', 8), geo: object(scalars('g', 4)) }),
    billing: object({ ...scalars('b', 8), card: object(scalars('c', 4)) }),
    orders: { type: 'array', items: object({ ...scalars('o', 6), item: object(scalars('i', 2)) }) },
    sessions: { type: 'array', items: object(scalars('s', 4)) }
  })
})()

export const WIDE_FIELDS = Object.keys(wideSchema.properties)

function wideValue (schema: { type?: string, properties?: Record<string, unknown>, items?: unknown }, i: number): unknown {
  if (schema.type === 'integer') return i
  if (schema.type === 'string') return `value ${i}`
  if (schema.type === 'boolean') return i % 2 === 0
  if (schema.type === 'array') return [0, 1].map((k) => wideValue(schema.items as typeof schema, i * 2 + k))
  return Object.fromEntries(Object.entries(schema.properties!).map(([name, field]) => [name, wideValue(field as typeof schema, i)]))
}

export function makeWideRecords (count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => wideValue(wideSchema, i + 1) as Record<string, unknown>)
}

/** The fields of the wide record's compiled selection: the ids and one of each kind of field, nested ones included. */
export const WIDE_SELECTED = ['id', 'f0', 'f1', 'profile', 'orders']

/** 512 lists of the wide record: `id` and a fixed pseudo-random third of its other top-level fields. */
export function wideLists (): string[] {
  let seed = 7
  const lists = new Set<string>()
  while (lists.size < 512) {
    const kept = WIDE_FIELDS.filter((field) => {
      seed = (seed * 48271) % 2147483647
      return field === 'id' || seed % 3 === 0
    })
    lists.add(kept.join(','))
  }
  return [...lists]
}

/** `count` query strings never sent before, for `fields`: distinct lists of top-level fields, some of them nested paths of `nested`. */
export function neverSeenLists (fields: readonly string[], nested: readonly string[], count: number): string[] {
  let seed = 11
  const lists = new Set<string>()
  const pool = [...fields, ...nested]
  while (lists.size < count) {
    const kept = pool.filter(() => {
      seed = (seed * 48271) % 2147483647
      return seed % 2 === 0
    })
    // The order varies too: a spelling never seen is a query string never seen.
    seed = (seed * 48271) % 2147483647
    const start = kept.length === 0 ? 0 : seed % kept.length
    lists.add([...kept.slice(start), ...kept.slice(0, start)].join(',') || 'id')
  }
  return [...lists]
}
