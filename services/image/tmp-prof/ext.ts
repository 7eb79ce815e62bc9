import { readFileSync } from 'node:fs';
import { heifDataEnd } from '../src/engine/stages/heif-extents.js';
const base = '/tmp/heicsrc/pillow_heif-0.18.0/tests/images/';
for (const f of ['heif_truncated/truncated.heic', 'heif_other/pug.heic', 'heif_special/xiaomi.heic', 'heif_other/cat.hif']) {
  const b = readFileSync(base + f);
  console.log(f, b.length, heifDataEnd(b));
}
const b = readFileSync(base + 'heif_other/pug.heic');
let at = 0x18 + 12; const end = 0x18 + b.readUInt32BE(0x18);
while (at + 8 <= end) { const size = b.readUInt32BE(at); const t = b.toString('latin1', at+4, at+8); console.log(t, size); if (t === 'iloc') console.log(b.subarray(at, at+40).toString('hex')); if (size < 8) break; at += size; }
