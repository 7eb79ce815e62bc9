// The order vitest starts test files in. Its own sequencer runs the longest files first only when
// it remembers their durations (node_modules/.vite, empty in CI's fresh clone); otherwise it keeps
// the given order, which put the slowest files (the API fuzz run, the browser journeys, the k8s
// tier) last and left one of the two workers idle for minutes at the end. Slow tiers start first.
import { statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Lower starts earlier: a tier's files run about this much longer than the next tier's. The
 * container tier starts after the e2e files: it waits for the image that scripts/test.mjs builds in
 * the background, which is ready by then, so its worker does not sit idle waiting (where fewer such
 * files run than workers, or the build is long, the runner finishes the image first:
 * scripts/test/image-plan.mjs).
 */
const TIER_ORDER: Record<string, number> = { fault: 0, k8s: 1, e2e: 2, container: 3, int: 4, unit: 5 };

export function tierOf(file: string): string {
  return file.match(/\.(unit|int|e2e|k8s|fault|container)\.spec\.tsx?$/)?.[1] ?? 'unit';
}

/** Sorts files: slower tiers first, then the longest remembered duration, then the larger file. */
export function longestFirst<T>(
  files: T[],
  describe: (f: T) => { path: string; duration?: number; size: number },
): T[] {
  return [...files].sort((a, b) => {
    const x = describe(a);
    const y = describe(b);
    const tier = (TIER_ORDER[tierOf(x.path)] ?? 9) - (TIER_ORDER[tierOf(y.path)] ?? 9);
    if (tier !== 0) return tier;
    if (x.duration !== undefined && y.duration !== undefined) return y.duration - x.duration;
    return y.size - x.size;
  });
}

export default class SlowTiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    return longestFirst(files, (spec) => {
      const key = `${spec.project.name}:${spec.moduleId.slice(this.ctx.config.root.length + 1)}`;
      return {
        path: spec.moduleId,
        duration: cache.getFileTestResults(key)?.duration,
        size: statSync(spec.moduleId).size,
      };
    });
  }
}
