#!/usr/bin/env node
// `npm start`: installs and builds what is missing, then runs Flatlay on its embedded default.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build, ensureInstalled, repoRoot } from './lib/steps.mjs';

ensureInstalled();
build();
const child = spawn(process.execPath, [join(repoRoot, 'apps', 'embedded', 'dist', 'embedded.js')], {
  stdio: 'inherit',
  cwd: repoRoot,
});
// Ctrl-C reaches the whole process group; the runtime stops its services and Postgres, and we wait for it.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
