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
