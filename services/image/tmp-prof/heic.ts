import { readFile } from 'node:fs/promises';
import { decodeImage } from '../src/engine/stages/decode.js';
const base = '/tmp/heicsrc/pillow_heif-0.18.0/tests/images/';
for (const f of ['heif_special/xiaomi.heic', 'heif_other/spatial_photo.heic', 'heif_other/pug.heic', 'heif_other/arrow.heic', 'heif_other/cat.hif', 'heif_special/guitar_cw90.hif', 'heif_other/nokia/bird_burst.heic', 'heif_other/nokia/alpha.heic', 'heif_other/L_exif_xmp_iptc.heic', 'heif_other/empty_icc.heic', 'heif_other/invalid_id.heic', 'heif_other/RGB_8_chroma444.heif', 'heif_truncated/truncated.heic', 'heif_corrupted/corrupted.heic', 'heif_corrupted/empty.heic']) {
  const t = performance.now();
  try {
    const d = await decodeImage(await readFile(base + f), { maxPixels: 40e6, workingLongSide: 2560 });
    const px = d.image.data; let sum = 0; for (let i = 0; i < px.length; i += 997) sum += px[i]!;
    console.log('ok  ', f, d.format, `${d.originalWidth}x${d.originalHeight}`, '->', `${d.image.width}x${d.image.height}`, 'mean~', Math.round(sum / (px.length / 997)), Math.round(performance.now() - t), 'ms');
  } catch (e) { console.log('err ', f, (e as any).code, String((e as Error).message).slice(0, 120), Math.round(performance.now() - t), 'ms'); }
}
