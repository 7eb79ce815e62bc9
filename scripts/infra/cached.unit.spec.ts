import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { cached, withLock } from './cached.mjs';

describe('a folder made once per machine', () => {
  let root = '';
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'flatlay-cached-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is made once when two makers want it at the same time; the second finds the first one’s', async () => {
    const dir = path.join(root, 'tool-v1');
    let makes = 0;
    const make = async (out: string) => {
      makes += 1;
      await new Promise((r) => setTimeout(r, 300));
      fs.writeFileSync(path.join(out, 'tool'), 'binary');
    };
    const [a, b] = await Promise.all([cached(dir, 'v1\n', 'tool', make), cached(dir, 'v1\n', 'tool', make)]);
    assert.equal(makes, 1);
    assert.equal(a, dir);
    assert.equal(b, dir);
    assert.equal(fs.readFileSync(path.join(dir, 'tool'), 'utf8'), 'binary');
    assert.equal(fs.existsSync(`${dir}.lock`), false, 'the lock is released');
  });

  it('is made again when its recipe changed, and not when it is the same', async () => {
    const dir = path.join(root, 'tool');
    let makes = 0;
    const make = async () => {
      makes += 1;
    };
    await cached(dir, 'v1\n', 'tool', make);
    await cached(dir, 'v1\n', 'tool', make);
    await cached(dir, 'v2\n', 'tool', make);
    assert.equal(makes, 2);
    assert.equal(fs.readFileSync(path.join(dir, '.complete'), 'utf8'), 'v2\n');
  });

  it('is not left half-made when its maker fails, and the lock is released', async () => {
    const dir = path.join(root, 'tool');
    await assert.rejects(
      cached(dir, 'v1\n', 'tool', async (out) => {
        fs.writeFileSync(path.join(out, 'half'), '');
        throw new Error('compile failed');
      }),
      /compile failed/,
    );
    assert.deepEqual(fs.readdirSync(root), []);
  });

  it('takes over a lock whose owner has died', async () => {
    const dir = path.join(root, 'tool');
    // The pid of a process that has ended.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    fs.mkdirSync(`${dir}.lock`);
    fs.writeFileSync(path.join(`${dir}.lock`, 'pid'), dead);
    assert.equal(await withLock(dir, 'tool', async () => 'ran'), 'ran');
  });

  it('runs one holder of a lock at a time', async () => {
    const dir = path.join(root, 'tool');
    const events: string[] = [];
    const hold = (name: string) =>
      withLock(dir, 'tool', async () => {
        events.push(`${name} in`);
        await new Promise((r) => setTimeout(r, 200));
        events.push(`${name} out`);
      });
    await Promise.all([hold('a'), hold('b')]);
    assert.deepEqual(events, ['a in', 'a out', 'b in', 'b out']);
  });
});
