import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { heifDataEnd } from './heif-extents.js';

const box = (type: string, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const u = (bytes: number, v: number) => {
  const b = Buffer.alloc(bytes);
  b.writeUIntBE(v, 0, bytes);
  return b;
};

/** iloc version 1: 4-byte offsets, lengths and base offsets, no extent index. */
function ilocV1(items: { method: number; base: number; extents: [number, number][] }[]): Buffer {
  return box(
    'iloc',
    u(1, 1),
    u(3, 0),
    u(1, 0x44),
    u(1, 0x40),
    u(2, items.length),
    ...items.flatMap((it, i) => [
      u(2, i + 1),
      u(2, it.method),
      u(2, 0),
      u(4, it.base),
      u(2, it.extents.length),
      ...it.extents.flatMap(([o, l]) => [u(4, o), u(4, l)]),
    ]),
  );
}

const file = (iloc: Buffer) =>
  Buffer.concat([
    box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1')),
    box('meta', u(4, 0), box('hdlr', Buffer.alloc(24)), iloc),
  ]);

describe('HEIF item locations', () => {
  it('finds the end of the furthest extent stored in the file (base offset included)', () => {
    const f = file(
      ilocV1([
        {
          method: 0,
          base: 100,
          extents: [
            [0, 50],
            [60, 40],
          ],
        }, // ends at 200
        { method: 1, base: 0, extents: [[0, 99999]] }, // in the idat box: not a file offset
        { method: 0, base: 0, extents: [[150, 30]] },
      ]),
    );
    assert.equal(heifDataEnd(f), 200);
  });

  it('answers null when there is nothing to judge by (the decoder then decides)', () => {
    assert.equal(heifDataEnd(Buffer.from('not a heif file at all')), null);
    assert.equal(heifDataEnd(box('ftyp', Buffer.from('heic'))), null, 'no meta box');
    assert.equal(heifDataEnd(file(box('iloc', u(1, 1), u(3, 0), u(1, 0x44)))), null, 'iloc cut short');
  });
});
