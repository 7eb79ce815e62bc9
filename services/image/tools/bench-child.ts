import { spawn } from 'node:child_process';
import { withWorkerMalloc } from '../src/engine/process-env.js';

/**
 * Runs an engine bench's `main` in a child process of the same script with the worker's malloc
 * settings (process-env.ts: glibc reads them at process start, so they must be in the environment
 * before the process begins; BENCH_AS_IS=1 leaves the environment as it is). `beforeChild` runs
 * in the parent first, for one-time work that must not count in the child's figures.
 */
export function runAsBenchChild(main: () => Promise<void>, beforeChild: () => void = () => {}): void {
  if (process.env.BENCH_CHILD === '1') {
    main().catch((err: unknown) => {
      process.stderr.write(`${(err as Error)?.stack ?? err}\n`);
      process.exit(1);
    });
    return;
  }
  beforeChild();
  const env = { ...(process.env.BENCH_AS_IS === '1' ? process.env : withWorkerMalloc(process.env)), BENCH_CHILD: '1' };
  spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env }).on(
    'exit',
    (code) => process.exit(code ?? 1),
  );
}
