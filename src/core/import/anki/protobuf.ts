/**
 * A minimal reader of the protobuf wire format: enough to take a few known fields out of Anki's
 * small messages (media list, package meta, note type and template configs) without a code
 * generator or schema files. Unknown fields are skipped, as protobuf readers must.
 */

export type ProtoValue = number | Uint8Array;

export interface ProtoField {
  field: number;
  /** 0 varint, 1 fixed 64, 2 length-delimited, 5 fixed 32. */
  wire: number;
  value: ProtoValue;
}

export class ProtoError extends Error {}

/** Every field of one message, in order; throws ProtoError on truncated or malformed input. */
export function readProto(bytes: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let at = 0;
  const varint = (): number => {
    let result = 0;
    let scale = 1;
    for (let k = 0; k < 10; k++) {
      if (at >= bytes.length) throw new ProtoError("truncated varint");
      const b = bytes[at++] ?? 0;
      // Arithmetic instead of bit shifts: shifts stop at 32 bits, ids and sizes can be larger.
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new ProtoError("varint too long");
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field === 0) throw new ProtoError("field 0");
    if (wire === 0) {
      fields.push({ field, wire, value: varint() });
    } else if (wire === 2) {
      const length = varint();
      if (at + length > bytes.length) throw new ProtoError("truncated field");
      fields.push({ field, wire, value: bytes.subarray(at, at + length) });
      at += length;
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      if (at + size > bytes.length) throw new ProtoError("truncated fixed field");
      fields.push({ field, wire, value: bytes.subarray(at, at + size) });
      at += size;
    } else {
      throw new ProtoError(`unsupported wire type ${wire}`);
    }
  }
  return fields;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/** The last value of a varint field (protobuf's "last one wins"), or `fallback`. */
export function protoNumber(fields: ProtoField[], field: number, fallback = 0): number {
  let out = fallback;
  for (const f of fields) if (f.field === field && f.wire === 0) out = f.value as number;
  return out;
}

export function protoString(fields: ProtoField[], field: number): string {
  let out = "";
  for (const f of fields)
    if (f.field === field && f.wire === 2) out = utf8.decode(f.value as Uint8Array);
  return out;
}

export function protoBytesList(fields: ProtoField[], field: number): Uint8Array[] {
  return fields.filter((f) => f.field === field && f.wire === 2).map((f) => f.value as Uint8Array);
}

/** Writers for tests that build Anki packages; kept beside the reader so both agree on the format. */
export function encodeVarint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

export function encodeProto(fields: Array<[number, number | string | Uint8Array]>): Uint8Array {
  const out: number[] = [];
  for (const [field, value] of fields) {
    if (typeof value === "number") {
      out.push(...encodeVarint(field * 8), ...encodeVarint(value));
    } else {
      const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
      out.push(...encodeVarint(field * 8 + 2), ...encodeVarint(bytes.length), ...bytes);
    }
  }
  return Uint8Array.from(out);
}
