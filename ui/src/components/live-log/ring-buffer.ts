/** A bounded ring of the newest items, addressed by absolute position (0 = the first item ever pushed). */

export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private total = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.items = new Array<T | undefined>(capacity);
  }

  /** Items pushed so far (the absolute position the next one gets). */
  get end(): number {
    return this.total;
  }

  /** Absolute position of the oldest item still held; also how many were dropped. */
  get start(): number {
    return Math.max(0, this.total - this.capacity);
  }

  /** Items held. */
  get size(): number {
    return this.total - this.start;
  }

  push(item: T): void {
    this.items[this.total % this.capacity] = item;
    this.total++;
  }

  pushAll(items: readonly T[]): void {
    for (const item of items) this.push(item);
  }

  /** Counts `count` items as pushed and already dropped (lines that were never kept): positions stay absolute. */
  skip(count: number): void {
    if (count <= 0) return;
    if (count >= this.capacity) this.items.fill(undefined);
    else for (let i = 0; i < count; i++) this.items[(this.total + i) % this.capacity] = undefined;
    this.total += count;
  }

  /** The item at an absolute position, or undefined when it was dropped or not pushed yet. */
  at(position: number): T | undefined {
    if (position < this.start || position >= this.total) return undefined;
    return this.items[position % this.capacity];
  }

  /** Held items from absolute position `from` (clamped to what is held) up to `to` (exclusive), oldest first. */
  slice(from = this.start, to = this.total): T[] {
    const out: T[] = [];
    for (let i = Math.max(from, this.start); i < Math.min(to, this.total); i++) out.push(this.items[i % this.capacity] as T);
    return out;
  }

  clear(): void {
    this.items.fill(undefined);
    this.total = 0;
  }
}
