import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { createEngine } from '../src/engine/index.js';
const engine = await createEngine();
const tiles: Buffer[] = [];
for (const f of process.argv.slice(2)) {
  const [file, type] = f.split(':');
  const r = await engine.enhance(await readFile(`/work/shared/datasets/garments/casual/${file}`), { type: type ?? 'tops', size: 800 });
  tiles.push(await sharp(`/work/shared/datasets/garments/casual/${file}`).resize(300, 400, { fit: 'contain' }).png().toBuffer(), await sharp(r.full).resize(300, 400, { fit: 'contain' }).png().toBuffer());
}
const cols = 4, rows = Math.ceil(tiles.length / cols);
await sharp({ create: { width: 300 * cols, height: 400 * rows, channels: 3, background: '#444' } })
  .composite(tiles.map((t, i) => ({ input: t, left: (i % cols) * 300, top: Math.floor(i / cols) * 400 })))
  .png().toFile('/tmp/prof/casual.png');
