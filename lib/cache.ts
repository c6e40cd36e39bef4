/**
 * A bounded cache of compiled serializers that admits a key only on its
 * second sighting. A client sending a new field set on every request then
 * costs one short string in a bounded list, never a compilation.
 */
export class SecondSightCache<V> {
  readonly #entries = new Map<string, V>()
  readonly #seenOnce = new Map<string, true>()
  readonly #capacity: number

  /** `capacity` bounds both the stored values and the keys seen once; 0 stores nothing. */
  constructor (capacity: number) {
    this.#capacity = capacity
  }

  /** Number of stored values. */
  get size (): number {
    return this.#entries.size
  }

  /** Returns the stored value for `key`, marking it most recently used. */
  get (key: string): V | undefined {
    const value = this.#entries.get(key)
    if (value !== undefined) {
      // Re-inserting keeps the Map's order least recently used first.
      this.#entries.delete(key)
      this.#entries.set(key, value)
    }
    return value
  }

  /** True when `key` was seen before and has earned a value; otherwise remembers it. */
  admit (key: string): boolean {
    if (this.#capacity === 0) return false
    if (this.#seenOnce.delete(key)) return true
    evictOldest(this.#seenOnce, this.#capacity)
    this.#seenOnce.set(key, true)
    return false
  }

  /** Stores a value, evicting the least recently used one when full. */
  set (key: string, value: V): void {
    evictOldest(this.#entries, this.#capacity)
    this.#entries.set(key, value)
  }
}

function evictOldest (map: Map<string, unknown>, capacity: number): void {
  if (map.size >= capacity) map.delete(map.keys().next().value as string)
}
