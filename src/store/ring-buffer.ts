// A bounded window of the newest items, capped by count and by approximate bytes, with an O(1)
// index by key. Pure: it knows nothing about files; the store archives what this evicts.

export interface RingBufferOptions<T> {
  /** Most items kept (>= 1). */
  maxCount: number;
  /** Most bytes kept, as reported by `sizeOf`; the newest item is always kept, however big. */
  maxBytes: number;
  sizeOf: (item: T) => number;
  keyOf: (item: T) => string;
}

interface Slot<T> {
  item: T;
  size: number;
  key: string;
}

export class RingBuffer<T> {
  // A circular array: `head` is the oldest slot, `length` slots follow it (modulo capacity).
  // It grows by doubling up to maxCount, so a short session never allocates the full window.
  private slots: Array<Slot<T> | undefined> = new Array(8);

  /** The slot at a position inside the window, which is always filled (empty slots lie outside it). */
  private filled(at: number): Slot<T> {
    const slot = this.slots[at];
    if (!slot) throw new RangeError(`ring buffer slot ${at} is empty inside the window`);
    return slot;
  }
  private head = 0;
  private length = 0;
  private totalBytes = 0;
  private readonly index = new Map<string, Slot<T>>();
  private readonly maxCount: number;
  private readonly maxBytes: number;

  constructor(private readonly options: RingBufferOptions<T>) {
    this.maxCount = Math.max(1, Math.floor(options.maxCount));
    this.maxBytes = Math.max(0, options.maxBytes);
  }

  get count(): number {
    return this.length;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Adds the newest item; returns the items evicted to stay within bounds, oldest first. */
  push(item: T, size = this.options.sizeOf(item)): T[] {
    const slot: Slot<T> = { item, size, key: this.options.keyOf(item) };
    const evicted: T[] = [];
    while (this.length >= this.maxCount) evicted.push(this.shift());
    while (this.length > 0 && this.totalBytes + size > this.maxBytes) evicted.push(this.shift());
    if (this.length === this.slots.length) this.grow();
    this.slots[(this.head + this.length) % this.slots.length] = slot;
    this.length++;
    this.totalBytes += size;
    // A repeated key points at its newest item; the older one stays in the window until evicted.
    this.index.set(slot.key, slot);
    return evicted;
  }

  get(key: string): T | undefined {
    return this.index.get(key)?.item;
  }

  /** Evicts the oldest items until at most `keep` remain; returns them, oldest first. */
  shrink(keep: number): T[] {
    const evicted: T[] = [];
    while (this.length > Math.max(0, keep)) evicted.push(this.shift());
    // Give back the array too: memory pressure is why shrink is called.
    if (this.slots.length > 8 && this.length * 4 <= this.slots.length) this.compact();
    return evicted;
  }

  /**
   * Replaces items in place, oldest first: `fn` returns a new item for position `i` (0 = oldest)
   * or undefined to keep it. Returns the bytes freed. Nothing is evicted.
   */
  update(fn: (item: T, i: number) => T | undefined): number {
    let freed = 0;
    for (let i = 0; i < this.length; i++) {
      const at = (this.head + i) % this.slots.length;
      const slot = this.filled(at);
      const next = fn(slot.item, i);
      if (next === undefined) continue;
      const replaced: Slot<T> = { item: next, size: this.options.sizeOf(next), key: this.options.keyOf(next) };
      this.slots[at] = replaced;
      freed += slot.size - replaced.size;
      this.totalBytes += replaced.size - slot.size;
      if (this.index.get(slot.key) === slot) this.index.delete(slot.key);
      if (!this.index.has(replaced.key)) this.index.set(replaced.key, replaced);
    }
    return freed;
  }

  /** The kept items, oldest first (a fresh array). */
  items(): T[] {
    const out: T[] = new Array(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.filled((this.head + i) % this.slots.length).item;
    return out;
  }

  clear(): void {
    this.shrink(0);
  }

  private shift(): T {
    const slot = this.filled(this.head);
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) % this.slots.length;
    this.length--;
    this.totalBytes -= slot.size;
    if (this.index.get(slot.key) === slot) this.index.delete(slot.key);
    return slot.item;
  }

  private grow(): void {
    this.resize(Math.min(Math.max(8, this.slots.length * 2), Math.max(this.maxCount, 8)));
  }

  private compact(): void {
    this.resize(Math.max(8, this.length * 2));
  }

  private resize(capacity: number): void {
    const next: Array<Slot<T> | undefined> = new Array(capacity);
    for (let i = 0; i < this.length; i++) next[i] = this.slots[(this.head + i) % this.slots.length];
    this.slots = next;
    this.head = 0;
  }
}
