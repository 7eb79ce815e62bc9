// Prints the closing line `N passed, N failed[, N skipped]` alone on a line, which CI reads.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  private modules: ReadonlyArray<TestModule> = [];

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
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
