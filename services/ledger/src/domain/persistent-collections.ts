/**
 * Immutable set and map for decider state, with O(1) `add`/`set` when states are used one
 * after the other, as folding a stream does. Every value is a view of a shared, append-only
 * log up to its own length; extending a view that is not the log's latest (a branch: the same
 * state extended twice) first copies what it sees. No view ever changes, so evolve stays pure
 * without copying an account's whole history on every event.
 */

interface Log<K, V> {
  readonly entries: Map<K, { readonly at: number; readonly value: V }>;
  length: number;
}

abstract class LogView<K, V> {
  protected constructor(
    protected readonly log: Log<K, V>,
    /** How many log entries this value sees. */
    protected readonly seen: number,
  ) {}

  get size(): number {
    return this.seen;
  }

  protected find(key: K): { at: number; value: V } | undefined {
    const entry = this.log.entries.get(key);
    return entry !== undefined && entry.at < this.seen ? entry : undefined;
  }

  protected *visible(): IterableIterator<[K, V]> {
    for (const [key, entry] of this.log.entries) if (entry.at < this.seen) yield [key, entry.value];
  }

  /** The log to append to: the shared one when this is its latest view, else a copy of what this view sees. */
  protected appendable(): Log<K, V> {
    if (this.seen === this.log.length) return this.log;
    const entries = new Map<K, { at: number; value: V }>();
    for (const [key, value] of this.visible()) entries.set(key, { at: entries.size, value });
    return { entries, length: entries.size };
  }
}

export class PersistentSet<T> extends LogView<T, true> implements ReadonlySet<T> {
  private constructor(log: Log<T, true>, seen: number) {
    super(log, seen);
  }

  static empty<T>(): PersistentSet<T> {
    return new PersistentSet<T>({ entries: new Map(), length: 0 }, 0);
  }

  static of<T>(values: Iterable<T>): PersistentSet<T> {
    let set = PersistentSet.empty<T>();
    for (const v of values) set = set.add(v);
    return set;
  }

  has(value: T): boolean {
    return this.find(value) !== undefined;
  }

  add(value: T): PersistentSet<T> {
    if (this.has(value)) return this;
    const log = this.appendable();
    log.entries.set(value, { at: log.length, value: true });
    log.length++;
    return new PersistentSet(log, log.length);
  }

  *values(): SetIterator<T> {
    for (const [key] of this.visible()) yield key;
  }
  keys(): SetIterator<T> {
    return this.values();
  }
  *entries(): SetIterator<[T, T]> {
    for (const v of this.values()) yield [v, v];
  }
  [Symbol.iterator](): SetIterator<T> {
    return this.values();
  }
  forEach(callback: (value: T, value2: T, set: ReadonlySet<T>) => void): void {
    for (const v of this.values()) callback(v, v, this);
  }
}

export class PersistentMap<K, V> extends LogView<K, V> implements ReadonlyMap<K, V> {
  private constructor(log: Log<K, V>, seen: number) {
    super(log, seen);
  }

  static empty<K, V>(): PersistentMap<K, V> {
    return new PersistentMap<K, V>({ entries: new Map(), length: 0 }, 0);
  }

  has(key: K): boolean {
    return this.find(key) !== undefined;
  }

  get(key: K): V | undefined {
    return this.find(key)?.value;
  }

  set(key: K, value: V): PersistentMap<K, V> {
    const existing = this.find(key);
    if (existing && Object.is(existing.value, value)) return this;
    if (existing) {
      // Overwriting is rare in decider state: copy, with the key's new value.
      const entries = new Map<K, { at: number; value: V }>();
      for (const [k, v] of this.visible()) entries.set(k, { at: entries.size, value: k === key ? value : v });
      return new PersistentMap({ entries, length: entries.size }, entries.size);
    }
    const log = this.appendable();
    log.entries.set(key, { at: log.length, value });
    log.length++;
    return new PersistentMap(log, log.length);
  }

  *entries(): MapIterator<[K, V]> {
    yield* this.visible();
  }
  *keys(): MapIterator<K> {
    for (const [k] of this.visible()) yield k;
  }
  *values(): MapIterator<V> {
    for (const [, v] of this.visible()) yield v;
  }
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [k, v] of this.visible()) callback(v, k, this);
  }
}
