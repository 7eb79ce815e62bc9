// The engine's outputs as hashes, with the model's answers recorded once and replayed: a speed
// change to the stages is shown to change no byte by running this before and after and comparing
// the two files (the model is the slow part: replayed, a photo takes about half a second, and any
// difference is the stages').
//
//   npm run engine:replay -- OUT DATASET
//
// Photos: the dataset's casual ones and the bench's 12 MP camera photo, upright and turned 7°.
// Answers are kept in REPLAY_CACHE (default ~/.cache/flatlay/replay), keyed by the model's input.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { engineEnv } from '../src/engine/config.js';
import { createEngine } from '../src/engine/index.js';
import { DEFAULT_INFERENCE_SIZE } from '../src/engine/model/inference-size.js';
import { modelCacheDir } from '../src/engine/model/isnet-assets.js';
import { loadSegmentationModel, type SegmentationModel } from '../src/engine/model/session.js';
import { cameraPhoto } from './camera-photo.js';
import { datasetFolder } from './dataset.js';

const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: npm run engine:replay -- OUT DATASET\n');
  process.exit(2);
}
const dataset = datasetFolder(process.argv[3], 'engine:replay');
const cache = process.env.REPLAY_CACHE ?? path.join(homedir(), '.cache', 'flatlay', 'replay');
mkdirSync(cache, { recursive: true });
const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex').slice(0, 16);

/** The model, its answer for an input read from the cache when it was recorded before. */
function replayed(model: SegmentationModel): SegmentationModel {
  return {
    inputSize: model.inputSize,
    encoding: model.encoding,
    run: async (x) => {
      const file = path.join(
        cache,
        `${model.inputSize}-${hash(new Uint8Array(x.buffer, x.byteOffset, x.byteLength))}.bin`,
      );
      if (existsSync(file)) {
        const b = readFileSync(file);
        return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
      }
      const answer = await model.run(x);
      writeFileSync(file, Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength));
      return answer;
    },
    atSize: (s) => {
      const other = model.atSize?.(s);
      return other && replayed(other);
    },
    close: () => model.close(),
  };
}

/** The sub-type a casual photo's file name stands for. */
const subTypeOf = (file: string) =>
  file.startsWith('top')
    ? 'tops'
    : file.startsWith('bottom')
      ? 'bottoms'
      : file.startsWith('bag')
        ? 'bags_belts'
        : file.startsWith('shoes_side')
          ? 'side_view'
          : file.startsWith('shoes')
            ? 'two_shoe'
            : file.startsWith('headwear')
              ? 'accessory_headwear'
              : file.startsWith('detail')
                ? 'hardware_tag'
                : 'jewelry';

const settings = engineEnv();
const model = await loadSegmentationModel({
  modelPath: settings.MODEL_PATH,
  cacheDir: modelCacheDir(settings.ENGINE_MODEL_CACHE),
  optimization: 'all',
  inputSize: settings.ENGINE_INFERENCE_SIZE ?? DEFAULT_INFERENCE_SIZE,
});
const engine = await createEngine({ model: replayed(model) });
const photos: Array<[string, Buffer, string]> = readdirSync(path.join(dataset, 'casual'))
  .filter((f) => !f.includes('mask'))
  .sort()
  .map((f) => [f, readFileSync(path.join(dataset, 'casual', f)), subTypeOf(f)]);
const camera = await cameraPhoto(dataset, 12);
photos.push(['camera-12mp', camera, 'tops']);
photos.push(['camera-12mp-turned', await sharp(camera).rotate(7, { background: '#808080' }).jpeg().toBuffer(), 'tops']);

const lines: string[] = [];
const started = performance.now();
for (const [name, photo, type] of photos) {
  try {
    const r = await engine.enhance(photo, { type: type as 'tops', size: 2048 });
    const checks = r.checks.map((c) => `${c.rule}=${c.pass}`).join(',');
    const mask = r.geometry.mask ? hash(r.geometry.mask.data) : '-';
    lines.push(
      `${name} ${hash(r.full)} ${hash(r.thumbnail)} ${hash(r.preview)} ${mask} ${r.geometry.rotationDeg} ${checks}`,
    );
  } catch (error) {
    lines.push(`${name} error ${(error as Error).message}`);
  }
}
writeFileSync(out, `${lines.join('\n')}\n`);
process.stdout.write(`${photos.length} photos in ${Math.round(performance.now() - started)} ms: ${out}\n`);
await engine.close();
await model.close();
process.exit(0);
