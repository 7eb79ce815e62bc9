/**
 * Where a HEIF file says its image data lies. libheif decodes a file cut short without an error
 * and paints the missing tiles of a grid image green; comparing the item locations (the `iloc`
 * box) with the file's length catches that before decoding. Pure byte reading, no decoder.
 */

interface Box {
  type: string;
  start: number; // first byte of the box's content
  end: number;
}

function boxes(buf: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header) break;
    out.push({ type, start: at + header, end: Math.min(to, at + size) });
    at += size;
  }
  return out;
}

class Cursor {
  constructor(
    private readonly buf: Buffer,
    public at: number,
    private readonly end: number,
  ) {}
  uint(bytes: number): number {
    if (bytes === 0) return 0;
    if (this.at + bytes > this.end) throw new RangeError('iloc box ends early');
    const at = this.at;
    this.at += bytes;
    if (bytes === 1) return this.buf.readUInt8(at);
    if (bytes === 2) return this.buf.readUInt16BE(at);
    if (bytes === 3) return this.buf.readUIntBE(at, 3);
    if (bytes === 4) return this.buf.readUInt32BE(at);
    if (bytes === 8) return Number(this.buf.readBigUInt64BE(at));
    throw new RangeError(`field of ${bytes} bytes`);
  }
}

/**
 * The end (exclusive byte offset) of the furthest extent of any item stored in this file, or
 * null when the file has no readable `meta`/`iloc` (the decoder then judges it).
 */
export function heifDataEnd(buf: Buffer): number | null {
  const meta = boxes(buf, 0, buf.length).find((b) => b.type === 'meta');
  if (!meta) return null;
  const iloc = boxes(buf, meta.start + 4, meta.end).find((b) => b.type === 'iloc'); // meta is a full box
  if (!iloc) return null;
  try {
    const c = new Cursor(buf, iloc.start, iloc.end);
    const version = c.uint(1);
    c.uint(3); // flags
    const sizes = c.uint(1),
      more = c.uint(1);
    const offsetSize = sizes >> 4,
      lengthSize = sizes & 15,
      baseOffsetSize = more >> 4;
    const indexSize = version === 1 || version === 2 ? more & 15 : 0;
    const items = c.uint(version < 2 ? 2 : 4);
    let furthest = 0;
    for (let i = 0; i < items; i++) {
      c.uint(version < 2 ? 2 : 4); // item_ID
      const constructionMethod = version === 1 || version === 2 ? c.uint(2) & 15 : 0;
      const dataReference = c.uint(2);
      const base = c.uint(baseOffsetSize);
      const extents = c.uint(2);
      for (let e = 0; e < extents; e++) {
        c.uint(indexSize);
        const offset = c.uint(offsetSize),
          length = c.uint(lengthSize);
        // 0: offsets into this file (1: into the idat box, 2: into other items)
        if (constructionMethod === 0 && dataReference === 0 && length > 0)
          furthest = Math.max(furthest, base + offset + length);
      }
    }
    return furthest;
  } catch {
    return null;
  }
}
