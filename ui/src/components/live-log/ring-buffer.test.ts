/** Tests of the ring buffer: absolute positions, dropping the oldest, slices. */
import { describe, expect, test } from 'bun:test';
import { RingBuffer } from './ring-buffer';

describe('RingBuffer', () => {
  test('holds everything below capacity', () => {
    const ring = new RingBuffer<number>(4);
    ring.pushAll([1, 2, 3]);
    expect([ring.start, ring.end, ring.size]).toEqual([0, 3, 3]);
    expect(ring.slice()).toEqual([1, 2, 3]);
    expect(ring.at(0)).toBe(1);
    expect(ring.at(3)).toBeUndefined();
  });

  test('drops the oldest past capacity and keeps absolute positions', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 0; i < 10; i++) ring.push(i * 10);
    expect([ring.start, ring.end, ring.size]).toEqual([7, 10, 3]);
    expect(ring.at(6)).toBeUndefined();
    expect(ring.at(7)).toBe(70);
    expect(ring.at(9)).toBe(90);
    expect(ring.slice()).toEqual([70, 80, 90]);
    expect(ring.slice(0, 9)).toEqual([70, 80]);
    expect(ring.slice(8)).toEqual([80, 90]);
  });

  test('clear starts over', () => {
    const ring = new RingBuffer<string>(2);
    ring.pushAll(['a', 'b', 'c']);
    ring.clear();
    expect([ring.start, ring.end, ring.size]).toEqual([0, 0, 0]);
    ring.push('d');
    expect(ring.slice()).toEqual(['d']);
  });

  test('skip counts lines never kept and drops the oldest held ones', () => {
    const ring = new RingBuffer<number>(3);
    ring.pushAll([1, 2, 3]);
    ring.skip(2);
    ring.push(6);
    expect([ring.start, ring.end]).toEqual([3, 6]);
    expect(ring.slice()).toEqual([undefined, undefined, 6] as unknown as number[]);
    ring.skip(10);
    expect([ring.start, ring.end, ring.slice().filter((x) => x !== undefined)]).toEqual([13, 16, []]);
  });

  test('refuses a capacity below one', () => {
    expect(() => new RingBuffer(0)).toThrow();
  });

  test('100,000 lines of 200,000 pushed', () => {
    const ring = new RingBuffer<number>(100_000);
    for (let i = 0; i < 200_000; i++) ring.push(i);
    expect(ring.start).toBe(100_000);
    expect(ring.at(100_000)).toBe(100_000);
    expect(ring.at(199_999)).toBe(199_999);
  });
});
