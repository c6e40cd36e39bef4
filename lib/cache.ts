/**
 * A bounded cache with frequency-based admission, for compiled serializers
 * and remembered parses.
 *
 * A key earns a value only when it has been seen twice, makes up at least
 * `share` of the recent lookups, and, once the cache is full, has been seen
 * clearly more often than the entry it would evict (the TinyLFU rule, with a
 * margin of one sighting: in a cycle of keys the newcomer has always just
 * been counted and its victim not yet). A client
 * cycling through more keys than the cache holds then gets no admission
 * storm, while a key that becomes popular still displaces a stale one.
 * Whatever the pattern, admissions are also rationed: a budget of `capacity`
 * that refills by one every 64 lookups, which keys admitted on first use
 * spend too, each time they return after an eviction.
 */

const ROWS = 4
const LOOKUPS_PER_COMPILATION = 64

/** FNV-1a, 32 bits. */
function hash (text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * Approximate counts of how often keys were seen, in fixed memory (a
 * count-min sketch of 8-bit counters). All counts are halved every
 * `10 × capacity` increments, so old popularity fades.
 */
export class FrequencySketch {
  readonly #counters: Uint8Array
  readonly #mask: number
  readonly #resetAfter: number
  #increments = 0
  /** Every increment, halved with the counts: what the counts stand for in all. */
  #total = 0

  constructor (capacity: number) {
    let width = 16
    while (width < capacity * 4) width *= 2
    this.#counters = new Uint8Array(width * ROWS)
    this.#mask = width - 1
    this.#resetAfter = Math.max(capacity, 1) * 10
  }

  #slot (h1: number, h2: number, row: number): number {
    // Double hashing: one string hash, four positions.
    return row * (this.#mask + 1) + ((h1 + row * h2) & this.#mask)
  }

  /** Counts one sighting of `key` and returns its estimated count. */
  increment (key: string): number {
    const h1 = hash(key)
    const h2 = (Math.imul(h1, 0x5bd1e995) >>> 15) | 1
    let estimate = 255
    for (let row = 0; row < ROWS; row++) {
      const slot = this.#slot(h1, h2, row)
      if (this.#counters[slot] < 255) this.#counters[slot]++
      estimate = Math.min(estimate, this.#counters[slot])
    }
    this.#total++
    if (++this.#increments >= this.#resetAfter) {
      this.#age()
      estimate >>= 1
    }
    return estimate
  }

  /** Estimated count of `key`, without counting it. */
  estimate (key: string): number {
    const h1 = hash(key)
    const h2 = (Math.imul(h1, 0x5bd1e995) >>> 15) | 1
    let estimate = 255
    for (let row = 0; row < ROWS; row++) estimate = Math.min(estimate, this.#counters[this.#slot(h1, h2, row)])
    return estimate
  }

  /** The sightings the counts stand for in all, aged as they are: a key's estimate over it is its share of recent sightings. */
  get total (): number {
    return this.#total
  }

  /**
   * Counts a sighting in the total alone, for a key whose own count does not
   * matter. It ages the counts like any other: otherwise a total grown past
   * 32 × 255 would leave every 8-bit count short of a 1/32 share.
   */
  incrementTotal (): void {
    this.#total++
    if (++this.#increments >= this.#resetAfter) this.#age()
  }

  #age (): void {
    for (let i = 0; i < this.#counters.length; i++) this.#counters[i] >>= 1
    this.#increments = 0
    this.#total /= 2
  }
}

export interface AdmissionOptions {
  /** Whether a hit makes its entry the last to be evicted (default true). */
  recency?: boolean
  /** Bounds the sum of the stored values' weights (given to `set`), evicting as `capacity` does (default: no bound). */
  maxWeight?: number
  /** The smallest share of recent lookups that a key must account for to be admitted (default 0: any). */
  share?: number
}

export class AdmissionCache<V> {
  readonly #entries = new Map<string, V>()
  readonly #sketch: FrequencySketch
  readonly #capacity: number
  readonly #recency: boolean
  readonly #share: number
  readonly #maxWeight: number
  readonly #weights = new Map<string, number>()
  #weight = 0
  #evictions = 0
  #budget: number
  /** The key of the last `get` and its count then, so that `admit` after a miss counts nothing twice. */
  #lastKey: string | undefined = undefined
  #lastCount = 0

  /**
   * `capacity` bounds the stored values; 0 stores nothing. With `recency`
   * (the default) a hit makes its entry the last to be evicted; without it,
   * entries are evicted in the order they were stored, and a hit costs only
   * a lookup and a count: the frequency rule still keeps popular entries.
   */
  constructor (capacity: number, { recency = true, share = 0, maxWeight = Infinity }: AdmissionOptions = {}) {
    this.#capacity = capacity
    this.#maxWeight = maxWeight
    this.#recency = recency
    this.#share = share
    this.#budget = capacity
    this.#sketch = new FrequencySketch(capacity)
  }

  /** Number of stored values. */
  get size (): number {
    return this.#entries.size
  }

  /** Returns the stored value for `key` (undefined when none), counting the sighting and, with recency, marking it most recently used. */
  get (key: string): V | undefined {
    if (this.#capacity === 0) return undefined
    this.#lastKey = key
    this.#lastCount = this.#sketch.increment(key)
    this.#budget = Math.min(this.#capacity, this.#budget + 1 / LOOKUPS_PER_COMPILATION)
    const value = this.#entries.get(key)
    if (this.#recency && (value !== undefined || this.#entries.has(key))) {
      // Re-inserting keeps the Map's order least recently used first.
      this.#entries.delete(key)
      this.#entries.set(key, value as V)
    }
    return value
  }

  /**
   * Counts a lookup that the caller answered without `get` (from a memo of
   * its own), so that the shares `admit` compares are shares of every lookup.
   */
  countLookup (): void {
    this.#sketch.incrementTotal()
  }

  /**
   * Right after a missed `get` of `key`: whether it has earned a value. True uses up one
   * unit of the compilation budget; the caller is expected to `set` it.
   */
  admit (key: string): boolean {
    if (this.#capacity === 0 || this.#budget < 1) return false
    // Asked for another key than the last missed one, there is no sighting to go by.
    const seen = key === this.#lastKey ? this.#lastCount : 0
    if (seen < 2 || seen < this.#share * this.#sketch.total) return false
    if (this.#entries.size >= this.#capacity) {
      const victim = this.#entries.keys().next().value as string
      if (seen <= this.#sketch.estimate(victim) + 1) return false
    }
    this.#budget--
    return true
  }

  /**
   * Right after a missed `get` of `key`, for a key the server named (one of
   * finitely many): whether it may have a value now, without waiting to be
   * seen twice or to make up a share. It still spends the compilation
   * budget, so no spelling compiles faster than the ration; the caller is
   * expected to `set` it.
   */
  admitOnFirstUse (): boolean {
    if (this.#capacity === 0 || this.#budget < 1) return false
    this.#budget--
    return true
  }

  /**
   * Spends `units` more of the compilation budget, after an admission, for a
   * value that costs more than one unit to make; the budget may go below
   * zero, and nothing is admitted until it has refilled.
   */
  spend (units: number): void {
    this.#budget -= units
  }

  /** How many values were evicted so far: a caller that keeps values elsewhere knows when to look again. */
  get evictions (): number {
    return this.#evictions
  }

  /** The sum of the stored values' weights. */
  get weight (): number {
    return this.#weight
  }

  /**
   * Stores a value of some `weight` (0 by default), evicting the least
   * recently used (or, without recency, the oldest) ones while the cache
   * would hold more values than its capacity, or more weight than its bound.
   */
  set (key: string, value: V, weight = 0): void {
    this.#evict(key)
    while (this.#entries.size > 0 && (this.#entries.size >= this.#capacity || this.#weight + weight > this.#maxWeight)) {
      this.#evict(this.#entries.keys().next().value as string)
      this.#evictions++
    }
    this.#entries.set(key, value)
    if (weight > 0) {
      this.#weights.set(key, weight)
      this.#weight += weight
    }
  }

  #evict (key: string): void {
    this.#entries.delete(key)
    const weight = this.#weights.get(key)
    if (weight === undefined) return
    this.#weights.delete(key)
    this.#weight -= weight
  }
}
