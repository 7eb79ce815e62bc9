import { createEngine, DEFAULT_MAX_PIXELS } from '../../src/engine/engine.js';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { resolveOptions } from '../../src/engine/options.js';
import { cleanupOptions, workingLongSide } from '../../src/engine/pipeline.js';
import { resolveRecipe } from '../../src/engine/recipes/index.js';
import { engineEnv } from '../../src/engine/config.js';
import { modelCacheDir, repoRoot } from '../../src/engine/model/isnet-assets.js';
import { loadSegmentationModel } from '../../src/engine/model/session.js';
import { decodeImage } from '../../src/engine/stages/decode.js';
import { CLEANUP_STEPS, type CleanupStep, cleanMask } from '../../src/engine/stages/mask-cleanup.js';
import { threshold } from '../../src/engine/stages/mask-ops.js';
import { segment } from '../../src/engine/stages/segment.js';
import { datasetFolder } from '../dataset.js';
import { iou, median, resizeMask } from './metrics.js';
import { loadPeer } from './peer.js';
import { makeScene, typeFor } from './scenes.js';

/**
 * npm run eval:mask-stages -- DATASET [--held-out=K] [--only=NAME]: where the engine's mask IoU is
 * won or lost against the peer's, scene by scene, on the eval's synthetic scenes of one draw: the
 * model's probabilities thresholded as they come out of segment() ("raw"), after each cleanup
 * step (cleanMask's CLEANUP_STEPS), the pipeline's own mask (what `npm run eval` scores), and the peer's mask, all on the engine's mask grid against
 * the true mask brought there. The peer runs as in the eval (peer.ts). For diagnosis: it judges
 * nothing.
 */
const args = process.argv.slice(2);
const dataset = datasetFolder(
  args.find((a) => !a.startsWith('--')),
  'eval:mask-stages',
);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const draw = Number(option('held-out') ?? 0);
const only = option('only');

async function main() {
  const engine = await createEngine();
  // the same settings createEngine reads, so segment() below runs the engine's own session
  const env = engineEnv();
  const segmentation = await loadSegmentationModel({
    modelPath: env.MODEL_PATH,
    cuda: env.ENGINE_CUDA,
    cacheDir: modelCacheDir(env.ENGINE_MODEL_CACHE),
    inputSize: env.ENGINE_INFERENCE_SIZE,
  });
  const peer = await loadPeer(repoRoot());
  const backgrounds = (await readdir(path.join(dataset, 'backgrounds'))).sort();
  const cleans = (await readdir(path.join(dataset, 'clean'))).filter((f) => !f.includes('_mask.')).sort();
  const steps = CLEANUP_STEPS;
  const rows: { name: string; raw: number; clean: number; pipeline: number; peer: number; steps: number[] }[] = [];
  process.stdout.write(
    `| scene | raw | ${steps.join(' | ')} | cleaned | pipeline | peer | peer - pipeline |\n|${'---|'.repeat(steps.length + 6)}\n`,
  );
  for (const [i, garment] of cleans.entries()) {
    const background = backgrounds[(i + draw) % backgrounds.length]!;
    const scene = await makeScene(dataset, garment, background, 1000 + 100 * draw + i, 'plain');
    if (only && !scene.name.includes(only)) continue;
    const type = typeFor(garment);
    const { image } = await decodeImage(scene.input, {
      maxPixels: DEFAULT_MAX_PIXELS,
      workingLongSide: workingLongSide(),
    });
    const prob = await segment(image, segmentation);
    const truth = await resizeMask(scene.gtMask, prob.width, prob.height);
    const o = resolveOptions({ type });
    const recipe = resolveRecipe(o.type, o.subType);
    const after = new Map<CleanupStep, number>();
    const cleaned = cleanMask(prob, cleanupOptions(recipe, prob.photo), (step, bin) =>
      after.set(step, iou(bin, truth)),
    );
    const result = await engine.enhance(scene.input, { type });
    const own = result.geometry.mask!;
    const theirs = await resizeMask(await peer.segment(scene.input), prob.width, prob.height);
    const row = {
      name: scene.name,
      raw: iou(threshold(prob), truth),
      clean: cleaned ? iou(cleaned.binary, truth) : 0,
      pipeline: iou(own, await resizeMask(scene.gtMask, own.width, own.height)),
      peer: iou(theirs, truth),
      steps: steps.map((s) => after.get(s) ?? Number.NaN),
    };
    rows.push(row);
    const f = (v: number) => v.toFixed(4);
    process.stdout.write(
      `| ${row.name} | ${f(row.raw)} | ${row.steps.map(f).join(' | ')} | ${f(row.clean)} | ${f(row.pipeline)} | ${f(row.peer)} | ${f(row.peer - row.pipeline)} |\n`,
    );
  }
  const med = (k: 'raw' | 'clean' | 'pipeline' | 'peer') => median(rows.map((r) => r[k])).toFixed(4);
  process.stdout.write(
    `| median (draw ${draw}, ${rows.length} scenes) | ${med('raw')} | ${steps.map((_, k) => median(rows.map((r) => r.steps[k]!)).toFixed(4)).join(' | ')} | ${med('clean')} | ${med('pipeline')} | ${med('peer')} | |\n`,
  );
  await engine.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? err}\n`);
  process.exit(1);
});
