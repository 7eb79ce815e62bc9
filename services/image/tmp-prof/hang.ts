import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { decodeImage } from '../src/engine/stages/decode.js';
import { segment } from '../src/engine/stages/segment.js';
import { loadSegmentationModel } from '../src/engine/model/session.js';
import { threshold, dilate, erode, boundingBox } from '../src/engine/stages/mask-ops.js';
import { keepProductComponents } from '../src/engine/stages/mask-cleanup.js';
const model = await loadSegmentationModel();
const f = process.argv[2]!;
const d = await decodeImage(await readFile(`/work/shared/datasets/garments/casual/${f}`), { maxPixels: 40e6, workingLongSide: 2560 });
const p = await segment(d.image, model);
const bin = keepProductComponents(threshold(p, 128))!.mask;
const b = boundingBox(bin)!;
const r = Math.max(2, Math.round(0.03 * Math.max(b.right - b.left, b.bottom - b.top)));
const opened = dilate(erode(bin, r), r);
console.log(p.width, p.height, 'box', b, 'r', r, 'openedTop', boundingBox(opened));
const vis = Buffer.alloc(p.width * p.height * 3);
for (let i = 0; i < p.width * p.height; i++) { vis[i*3] = bin.data[i]!; vis[i*3+1] = opened.data[i]!; vis[i*3+2] = p.data[i]!; }
await sharp(vis, { raw: { width: p.width, height: p.height, channels: 3 } }).extract({ left: b.left, top: b.top, width: b.right - b.left, height: Math.round((b.bottom - b.top) * 0.3) }).png().toFile('/tmp/prof/hang.png');
