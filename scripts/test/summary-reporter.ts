// Prints the time per tier (where a run's time goes, for CI logs), then the closing line
// `N passed, N failed[, N skipped]` alone on a line, which CI reads.
import type { Reporter, TestModule } from 'vitest/node';
import { type FileTime, formatTierTimes, tierTimes } from './tier-times.js';

export default class SummaryReporter implements Reporter {
  private modules: ReadonlyArray<TestModule> = [];
  private readonly started = new Map<string, number>();
  private readonly ended = new Map<string, number>();
  private readonly runStarted = Date.now();

  onTestModuleStart(module: TestModule): void {
    this.started.set(module.moduleId, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    this.ended.set(module.moduleId, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    this.modules = modules;
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load (or a failing hook) has no failing test of its own: count it.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((t) => t.result().state === 'failed'))
        failed++;
    }
    const times: FileTime[] = modules.map((module) => {
      const d = module.diagnostic();
      return {
        file: module.moduleId,
        durationMs: d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        startMs: this.started.get(module.moduleId),
        endMs: this.ended.get(module.moduleId),
      };
    });
    const tiers = formatTierTimes(tierTimes(times), Date.now() - this.runStarted);
    process.stdout.write(`\n${tiers.join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
