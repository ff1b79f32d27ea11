/** A minimal protocol-buffers wire reader (varint, fixed64, length-delimited): enough to decode OTLP without a schema compiler. */
import { badRequest } from '../../kernel/errors.ts';

export const WireType = { Varint: 0, Fixed64: 1, LengthDelimited: 2, Fixed32: 5 } as const;
export type WireType = (typeof WireType)[keyof typeof WireType];

const malformed = (what: string) => badRequest(`malformed protobuf body: ${what}`);
const utf8 = new TextDecoder('utf-8', { fatal: false });

export class ProtobufReader {
  pos: number;
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.byteLength,
    /** The parent's view of the same bytes: a nested message shares it (a request holds thousands of them). */
    view?: DataView,
  ) {
    this.pos = start;
    this.view = view ?? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The next field's number and wire type. */
  tag(): [field: number, wire: number] {
    const key = this.varint();
    const field = Math.floor(key / 8);
    if (field === 0) throw malformed(`field number 0 at byte ${this.pos}`);
    return [field, key & 7];
  }

  /** An unsigned varint as a JS number (exact up to 2^53; OTLP's counts and enums stay far below). */
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw malformed('truncated varint');
      const byte = this.bytes[this.pos++]!;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
    throw malformed('varint longer than 10 bytes');
  }

  /** A signed int64 varint (two's complement). */
  int64(): number {
    const value = this.varint();
    return value >= 2 ** 63 ? value - 2 ** 64 : value;
  }

  /** A zigzag-encoded sint32/sint64. */
  sint(): number {
    const value = this.varint();
    return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
  }

  private need(count: number) {
    if (this.pos + count > this.end) throw malformed(`truncated field at byte ${this.pos}`);
  }

  double(): number {
    this.need(8);
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  /** An unsigned fixed64 as a JS number (counts). */
  fixed64(): number {
    this.need(8);
    const low = this.view.getUint32(this.pos, true);
    const high = this.view.getUint32(this.pos + 4, true);
    this.pos += 8;
    return high * 2 ** 32 + low;
  }

  /** An unsigned fixed64 exactly (nanosecond timestamps need all 64 bits). */
  fixed64Big(): bigint {
    this.need(8);
    const value = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return value;
  }

  /** A signed fixed64 (as_int of a number point). */
  sfixed64(): number {
    this.need(8);
    const value = Number(this.view.getBigInt64(this.pos, true));
    this.pos += 8;
    return value;
  }

  /** The bounds of a length-delimited field; the reader moves past it. */
  delimited(): [start: number, end: number] {
    const length = this.varint();
    this.need(length);
    const start = this.pos;
    this.pos += length;
    return [start, this.pos];
  }

  /** A nested message's reader. */
  message(): ProtobufReader {
    const [start, end] = this.delimited();
    return new ProtobufReader(this.bytes, start, end, this.view);
  }

  string(): string {
    const [start, end] = this.delimited();
    return utf8.decode(this.bytes.subarray(start, end));
  }

  bytesField(): Uint8Array {
    const [start, end] = this.delimited();
    return this.bytes.subarray(start, end);
  }

  /** Skips a field of the given wire type (unknown fields are ignored, as protobuf requires). */
  skip(wire: number): void {
    switch (wire) {
      case WireType.Varint:
        this.varint();
        return;
      case WireType.Fixed64:
        this.need(8);
        this.pos += 8;
        return;
      case WireType.LengthDelimited:
        this.delimited();
        return;
      case WireType.Fixed32:
        this.need(4);
        this.pos += 4;
        return;
      default:
        throw malformed(`unsupported wire type ${wire} at byte ${this.pos}`);
    }
  }

  /** Reads repeated fixed64 values, packed or not. */
  repeatedFixed64(wire: number, into: number[]): void {
    if (wire === WireType.Fixed64) {
      into.push(this.fixed64());
      return;
    }
    const inner = this.message();
    while (!inner.done) into.push(inner.fixed64());
  }

  /** Reads repeated varint values, packed or not. */
  repeatedVarint(wire: number, into: number[]): void {
    if (wire === WireType.Varint) {
      into.push(this.varint());
      return;
    }
    const inner = this.message();
    while (!inner.done) into.push(inner.varint());
  }
}

/** Checks a field's wire type before reading it: a wrong type is a malformed body, never a misread. */
export function expectWire(actual: number, expected: WireType, field: string): void {
  if (actual !== expected) throw malformed(`${field} has wire type ${actual}, expected ${expected}`);
}
