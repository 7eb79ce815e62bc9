import decode from 'heic-decode';
import { readFileSync } from 'node:fs';
const base = '/tmp/heicsrc/pillow_heif-0.18.0/tests/images/';
for (const f of ['heif_truncated/truncated.heic', 'heif_other/nokia/alpha.heic', 'heif_other/pug.heic']) {
  const buf = readFileSync(base + f);
  const frames = await decode.all({ buffer: new Uint8Array(buf) });
  const img = await frames[0].decode();
  const { width: w, height: h, data } = img;
  let zeroA = 0; const rows = []; 
  for (let y = 0; y < h; y++) { let z = 0; for (let x = 0; x < w; x++) if (data[(y*w+x)*4+3] === 0) z++; zeroA += z; if (y % Math.floor(h/8) === 0) rows.push(z); }
  console.log(f, w, h, 'alpha0 share', (zeroA/(w*h)).toFixed(3), 'per-row samples', rows.join(','), 'file', buf.length);
  frames.dispose();
}
import sharp from 'sharp';
{
  const buf = readFileSync(base + 'heif_truncated/truncated.heic');
  const frames = await decode.all({ buffer: new Uint8Array(buf) });
  console.log('frames', frames.length, frames.map((f) => `${f.width}x${f.height}`).join(' '));
  const img = await frames[0].decode();
  await sharp(Buffer.from(img.data.buffer), { raw: { width: img.width, height: img.height, channels: 4 } }).resize(600).png().toFile('/tmp/prof/trunc.png');
  frames.dispose();
}
