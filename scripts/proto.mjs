#!/usr/bin/env node
// Generates the TypeScript of proto/ (buf + ts-proto, one place) and checks that the
// committed generated code is current. `gen` rewrites proto/src/gen; `check` lints the
// protos, generates into a temporary folder and fails if anything differs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const protoDir = resolve(import.meta.dirname, '..', 'proto');
const buf = resolve(protoDir, '..', 'node_modules', '.bin', 'buf');
/** @param {string[]} args */
const run = (args) => execFileSync(buf, args, { cwd: protoDir, stdio: 'inherit' });

/** @param {string} dir @returns {string[]} */
function listFiles(dir) {
  /** @type {string[]} */
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
}

/** @param {string} dir */
function snapshot(dir) {
  const files = new Map();
  for (const f of listFiles(dir)) files.set(relative(dir, f), readFileSync(f, 'utf8'));
  return files;
}

const mode = process.argv[2] ?? 'check';
run(['lint']);
if (mode === 'gen') {
  rmSync(join(protoDir, 'src', 'gen'), { recursive: true, force: true });
  run(['generate']);
  console.log('proto: generated proto/src/gen');
} else if (mode === 'check') {
  const tmp = mkdtempSync(join(tmpdir(), 'flatlay-proto-'));
  try {
    run(['generate', '-o', tmp]);
    const fresh = snapshot(join(tmp, 'src', 'gen'));
    const committed = snapshot(join(protoDir, 'src', 'gen'));
    const stale = [...new Set([...fresh.keys(), ...committed.keys()])].filter((k) => fresh.get(k) !== committed.get(k));
    if (stale.length > 0) {
      console.error(
        `proto: generated code is stale (${stale.join(', ')}). Run \`npm run proto:gen\` and commit the result.`,
      );
      process.exit(1);
    }
    console.log(`proto: lint passed, ${fresh.size} generated files are current`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
} else {
  console.error('usage: proto.mjs gen|check');
  process.exit(2);
}
