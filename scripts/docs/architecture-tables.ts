// The parts of docs/ARCHITECTURE.md that other files already say: the services' ports, topics,
// consumer groups and call edges (services/platform/src/registry.ts) and the events with their
// comments (proto/flatlay/events/v1/*.proto). They are rendered from those sources between
// `<!-- generated:NAME -->` markers, so the map cannot drift: `npm run docs:gen` rewrites them and
// a unit test fails when the committed text differs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventTypes } from '@flatlay/proto';
import { generationWorkQueue, registry, serviceNames, type CallEdges } from '@flatlay/platform';

export interface ProtoMessage {
  name: string;
  /** The comment lines right above `message Name {`, joined. */
  comment: string;
}

export interface ProtoEventsFile {
  /** The file's base name: the publishing service (identity, ledger, ...), or platform. */
  name: string;
  /** The file's leading comment: which topics its events go on and how they are keyed. */
  comment: string;
  messages: ProtoMessage[];
}

const commentText = (lines: string[]) =>
  lines
    .map((l) => l.replace(/^\s*\/\/\s?/, '').trim())
    .join(' ')
    .trim();

/** Reads one .proto file's top-level messages and their comments (the subset of proto3 our files use). */
export function parseProtoEvents(name: string, source: string): ProtoEventsFile {
  const messages: ProtoMessage[] = [];
  let fileComment = '';
  let pending: string[] = [];
  let depth = 0;
  for (const line of source.split('\n')) {
    if (depth === 0) {
      const opened = line.match(/^message\s+(\w+)\s*\{/);
      if (/^\s*\/\//.test(line)) pending.push(line);
      else if (opened) messages.push({ name: opened[1]!, comment: commentText(pending) });
      // The first comment standing alone before any message speaks for the whole file.
      else if (line.trim() === '' && pending.length && !fileComment && messages.length === 0)
        fileComment = commentText(pending);
      if (!/^\s*\/\//.test(line)) pending = [];
    }
    depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
  }
  return { name, comment: fileComment, messages };
}

/** Every events file but the envelope, in a stable order. */
export function readProtoEvents(protoDir: string): ProtoEventsFile[] {
  return readdirSync(protoDir)
    .filter((f) => f.endsWith('.proto') && f !== 'envelope.proto')
    .sort()
    .map((f) => parseProtoEvents(f.replace(/\.proto$/, ''), readFileSync(join(protoDir, f), 'utf8')));
}

const code = (s: string) => `\`${s}\``;
const cell = (s: string) => s.replaceAll('|', '\\|');

function callsText(calls: CallEdges): string {
  const parts = Object.entries(calls).map(([service, methods]) =>
    methods === 'all' ? `${service} (all)` : `${service} (${(methods as readonly string[]).join(', ')})`,
  );
  return parts.length ? parts.join('; ') : 'nobody';
}

/** The services table: port, topics written, the group and what it reads, whom it may call. */
export function renderServicesTable(): string {
  const rows = serviceNames.map((name) => {
    const entry = registry[name];
    const consumes = entry.consumes
      ? `${code(entry.consumes.group)}: ${entry.consumes.topics.map(code).join(', ')}`
      : 'nothing';
    return `| ${name} | ${entry.grpcPort} | ${entry.publishes.map(code).join(', ')} | ${consumes} | ${callsText(entry.calls)} |`;
  });
  // The gateway and the worker publish nothing through an outbox: the worker writes to image's
  // database, and the gateway's cache notices (`gateway.cache.v1`, ADR 0510) are its own affair.
  const gatewayRow = `| gateway | HTTP ${registry.gateway.httpPort} | cache notices only | one group per instance: its cache's invalidations | ${callsText(registry.gateway.calls)} |`;
  const workerRow = `| image-worker | health only | nothing (writes image's database) | ${code(generationWorkQueue.group)}: ${code(generationWorkQueue.topic)} | ${callsText(registry['image-worker'].calls)} |`;
  return [
    '| component | gRPC port | publishes | consumer group: topics | may call |',
    '|---|---|---|---|---|',
    ...rows,
    gatewayRow,
    workerRow,
  ].join('\n');
}

/** The events list: per publishing service, where its events go, then each event and what it says. */
export function renderEventsList(files: ProtoEventsFile[]): string {
  const known = new Set(Object.keys(eventTypes));
  const out: string[] = [];
  for (const file of files) {
    const events = file.messages.filter((m) => known.has(m.name));
    if (events.length === 0) continue;
    out.push(`**${file.name}** (${code(`proto/flatlay/events/v1/${file.name}.proto`)}): ${file.comment}`, '');
    out.push('| event | what it says |', '|---|---|');
    for (const m of events) out.push(`| ${code(m.name)} | ${cell(m.comment) || '(no comment in the .proto)'} |`);
    out.push('');
  }
  return out.join('\n').trimEnd();
}

export const generatedBlocks = (protoDir: string): { services: string; events: string } => ({
  services: renderServicesTable(),
  events: renderEventsList(readProtoEvents(protoDir)),
});

/** `doc` with each `<!-- generated:NAME -->…<!-- /generated:NAME -->` block replaced by `blocks[NAME]`. */
export function fillGeneratedBlocks(
  doc: string,
  blocks: Record<string, string>,
  file = 'docs/ARCHITECTURE.md',
): string {
  let out = doc;
  for (const [name, body] of Object.entries(blocks)) {
    const start = `<!-- generated:${name} (npm run docs:gen) -->`;
    const end = `<!-- /generated:${name} -->`;
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${file} has no block ${start} … ${end}`);
    out = `${out.slice(0, from + start.length)}\n${body}\n${out.slice(to)}`;
  }
  return out;
}
