// docs/ARCHITECTURE.md's generated blocks say what the registry and the event .proto files say:
// a port, topic, call edge or event changed in code and not in the map fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { eventTypes } from '@flatlay/proto';
import { fillGeneratedBlocks, generatedBlocks, parseProtoEvents, readProtoEvents } from './architecture-tables.js';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
const protoDir = join(root, 'proto', 'flatlay', 'events', 'v1');

describe('docs/ARCHITECTURE.md', () => {
  it('has its generated blocks current (npm run docs:gen rewrites them)', () => {
    const doc = readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
    assert.equal(fillGeneratedBlocks(doc, generatedBlocks(protoDir)), doc, 'run `npm run docs:gen` and commit');
  });

  it('lists every event type the code knows, each under the file that defines it', () => {
    const listed = readProtoEvents(protoDir).flatMap((f) => f.messages.map((m) => m.name));
    for (const name of Object.keys(eventTypes)) assert.ok(listed.includes(name), `${name} is in a .proto file`);
    const events = generatedBlocks(protoDir).events;
    for (const name of Object.keys(eventTypes).filter((n) => n !== 'ServiceStarted'))
      assert.match(events, new RegExp(`\\| \`${name}\` \\|`));
  });

  it('reads a message and its comment, the file comment, and skips nested braces', () => {
    const file = parseProtoEvents(
      'x',
      [
        'syntax = "proto3";',
        '',
        '// Events of x, on topic x.v1.',
        '',
        'message Plain {',
        '  string a = 1;',
        '}',
        '',
        '// Said twice',
        '// over two lines.',
        'message Told {',
        "  // a field comment, not the message's",
        '  oneof pick { string b = 1; }',
        '}',
      ].join('\n'),
    );
    assert.equal(file.comment, 'Events of x, on topic x.v1.');
    assert.deepEqual(file.messages, [
      { name: 'Plain', comment: '' },
      { name: 'Told', comment: 'Said twice over two lines.' },
    ]);
  });

  it('refuses a document that lost a block, naming it', () => {
    assert.throws(() => fillGeneratedBlocks('no markers', { events: 'x' }), /generated:events/);
  });
});
