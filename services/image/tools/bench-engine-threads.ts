import { loadavg } from 'node:os';
import { createThreadedEngine, type ThreadedEngine } from '../src/engine/thread.js';
import { threadsForEngines } from '../src/engine/model/threads.js';
import { cameraPhoto } from './camera-photo.js';
import { runAsBenchChild } from './bench-child.js';
import { datasetFolder } from './dataset.js';
import { median } from './eval/metrics.js';

/**
 * npm run bench:engine-threads -- DATASET: one engine against two engines in one process on the
 * same CPUs (issue 16: a worker with two engines must not be slower per image than one). Each
 * engine is a worker thread with its own ONNX Runtime session; its intra-op threads are the CPUs
 * available (cgroup quota, affinity) divided by the engines (model/threads.ts). Both shapes work
 * through the same PHOTOS 12 MP photos (default 8) from one queue; the figure per image is the
 * wall time over the photos, so an engine left idle or CPUs oversubscribed show in it.
 */
const dataset = datasetFolder(process.argv[2], 'bench:engine-threads');
const PHOTOS = Number(process.env.PHOTOS ?? 8);

interface Shape {
  engines: number;
  threadsEach: number;
  wallMs: number;
  perImageMs: number;
  latencyMs: number;
}

async function run(engines: number, photo: Buffer): Promise<Shape> {
  const pool: ThreadedEngine[] = await Promise.all(
    Array.from({ length: engines }, () => createThreadedEngine({ engines })),
  );
  try {
    await Promise.all(pool.map((e) => e.enhance(photo, { type: 'tops' }))); // warm-up: model, arena, caches
    let next = 0;
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      pool.map(async (e) => {
        while (next < PHOTOS) {
          next++;
          const t = performance.now();
          await e.enhance(photo, { type: 'tops' });
          latencies.push(performance.now() - t);
        }
      }),
    );
    const wallMs = performance.now() - t0;
    return {
      engines,
      threadsEach: pool[0]!.runtime?.intraOpThreads ?? 0,
      wallMs,
      perImageMs: wallMs / PHOTOS,
      latencyMs: median(latencies),
    };
  } finally {
    await Promise.all(pool.map((e) => e.close()));
  }
}

async function main() {
  const photo = await cameraPhoto(dataset, 12);
  const budget = threadsForEngines(1);
  process.stdout.write(
    `CPUs: ${budget.threads} (affinity ${budget.parallelism}, quota ${budget.quotaCpus ?? 'none'}), ${PHOTOS} photos of 12 MP, load average at start ${loadavg()[0]!.toFixed(2)}\n`,
  );
  const one = await run(1, photo);
  const two = await run(2, photo);
  process.stdout.write(
    '| engines | intra-op threads each | wall ms | ms per image | median latency ms |\n|---|---|---|---|---|\n',
  );
  for (const s of [one, two])
    process.stdout.write(
      `| ${s.engines} | ${s.threadsEach} | ${s.wallMs.toFixed(0)} | ${s.perImageMs.toFixed(0)} | ${s.latencyMs.toFixed(0)} |\n`,
    );
  const ratio = two.perImageMs / one.perImageMs;
  // 5%: the spread of two runs of the same shape on this machine
  const ok = ratio <= 1.05;
  process.stdout.write(
    `two engines per image / one engine per image: ${ratio.toFixed(2)}: ${ok ? 'not slower' : 'SLOWER'} (limit 1.05), load average at end ${loadavg()[0]!.toFixed(2)}\n`,
  );
  if (!ok) process.exitCode = 1;
}

// glibc reads its malloc settings at process start: measure with the worker's (bench-child.ts)
runAsBenchChild(main);
