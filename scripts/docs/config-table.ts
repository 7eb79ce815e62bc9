// README.md's configuration table, rendered from the zod schemas the processes validate their
// environment with (each variable's meaning is its `.meta({ description })`, its default the
// schema's `.default()` or a `.meta({ default })` text where the value is computed or implied),
// plus one hand-kept list of the variables no schema reads: tooling of tests and benchmarks, and the
// few the runtime or a container reads. `npm run docs:gen` rewrites the block; a unit test fails when
// the committed README differs, and another when code reads a variable this table does not know.
import { globalRegistry, type z } from 'zod';
import { gatewayEnvSchema } from '@flatlay/gateway';
import { serviceEnvSchema } from '@flatlay/platform';
import { embeddedEnvSchema } from '../../apps/embedded/src/config.js';
import { webSettingsEnvSchema } from '../../gateway/src/web-settings.js';
import { filesEnvSchema } from '../../gateway/src/files/index.js';
import { identityEnvSchema } from '../../services/identity/src/config.js';
import { imageEnvSchema } from '../../services/image/src/config.js';
import { generativeEnvSchema } from '../../services/image/src/generative/settings-source.js';
import { engineEnvSchema } from '../../services/image/src/engine/config.js';
import { billingEnvSchema } from '../../services/billing/src/config.js';
import { settingsEnvSchema } from '../../services/analytics/src/settings/settings-config.js';

/** Where a schema is read; a variable's row sits under the first of these that reads it. */
export interface ConfigSource {
  group: string;
  schemas: z.ZodObject[];
}

export const configSources: ConfigSource[] = [
  { group: 'every service run as its own process', schemas: [serviceEnvSchema] },
  { group: 'gateway', schemas: [gatewayEnvSchema, webSettingsEnvSchema, filesEnvSchema] },
  { group: 'embedded product (`npm start`)', schemas: [embeddedEnvSchema] },
  { group: 'identity', schemas: [identityEnvSchema] },
  {
    group: 'image service and generation worker',
    schemas: [imageEnvSchema, generativeEnvSchema, engineEnvSchema],
  },
  { group: 'billing', schemas: [billingEnvSchema] },
  { group: 'analytics', schemas: [settingsEnvSchema] },
];

/** A variable no zod schema reads: its row is written here. */
export interface UnschemaedVariable {
  name: string;
  group: string;
  default: string;
  meaning: string;
}

const RUNTIME = 'runtime and container image (read outside the schemas)';
const TOOLS = 'tests, benchmarks and tools';

export const unschemaedVariables: UnschemaedVariable[] = [
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    group: RUNTIME,
    default: 'unset: no export',
    meaning: 'OTLP/HTTP endpoint for traces',
  },
  {
    name: 'GPU_NODE_SELECTOR',
    group: RUNTIME,
    default: '`flatlay.dev/pool=gpu`',
    meaning: 'analytics, in Kubernetes only: label selector of the GPU nodes the admin overview counts',
  },
  {
    name: 'GPU_WORKER_SELECTOR',
    group: RUNTIME,
    default: '`app.kubernetes.io/component=image-worker`',
    meaning: 'analytics, in Kubernetes only: label selector of the image-worker pods the admin overview counts',
  },
  {
    name: 'KUBERNETES_SERVICE_HOST',
    group: RUNTIME,
    default: 'set by Kubernetes in a pod',
    meaning: "analytics: in a pod, the admin overview reads the GPU pool through the pod's service account",
  },
  {
    name: 'POD_NAMESPACE',
    group: RUNTIME,
    default: "the service account's namespace",
    meaning: 'analytics, in Kubernetes only: the namespace whose image-worker pods the admin overview counts',
  },
  {
    name: 'ENGINE_CUDA_LIBS',
    group: RUNTIME,
    default: '`0`',
    meaning:
      'a Docker build argument: `1`: the image carries onnxruntime-node\'s CUDA provider and the CUDA 13 / cuDNN 9 libraries it loads, from pinned PyPI wheels (`scripts/cuda-libs.sh`, about 2.3 GB); for hosts without the image, run the script (services/image/README.md, "GPU (CUDA)")',
  },
  {
    name: 'MALLOC_ARENA_MAX',
    group: RUNTIME,
    default: 'unset',
    meaning: 'set it to `2` for engine workers: peak memory at 24 MP stays under 1.2 GB (see docs/benchmarks.md)',
  },
  {
    name: 'MALLOC_MMAP_THRESHOLD_',
    group: RUNTIME,
    default: "unset (glibc's dynamic threshold)",
    meaning:
      "set it to `131072` for engine workers, with `MALLOC_ARENA_MAX=2`: freed image buffers go back to the system, so ONNX Runtime's faster arena fits the memory budget (services/image/src/engine/process-env.ts)",
  },
  {
    name: 'FLATLAY_KEEP_INFRA',
    group: TOOLS,
    default: 'unset',
    meaning: '`npm test` leaves the test infrastructure running (stop it with `npm run infra:down`)',
  },
  {
    name: 'FLATLAY_FAULTS',
    group: TOOLS,
    default: "unset: the fault tier's `npm test` set",
    meaning:
      'the fault tier only: `all` runs every fault (`npm run faults`), other text the faults whose name contains it',
  },
  {
    name: 'FAULT_LOG_LEVEL',
    group: TOOLS,
    default: '`warn`',
    meaning:
      'the fault tier only: the log level of the product processes it starts (their output is shown when a fault fails)',
  },
  {
    name: 'ONNXRUNTIME_NODE_INSTALL',
    group: TOOLS,
    default: '`skip` (set by the scripts)',
    meaning: "keeps onnxruntime-node's installer from downloading CUDA binaries",
  },
  { name: 'BENCH_SECONDS', group: TOOLS, default: '`8`', meaning: 'length of each benchmark run' },
  {
    name: 'LOAD_SECONDS',
    group: TOOLS,
    default: '`15`',
    meaning: "`npm run load` only: length of each scenario's run",
  },
  {
    name: 'LOAD_ONLY',
    group: TOOLS,
    default: 'unset: every scenario',
    meaning:
      '`npm run load` only: comma-separated scenarios to run (`sign-up-in`, `browse`, `me-balance`, `admin-dashboard`, `generate-poll`)',
  },
  {
    name: 'BENCH_EVENTS',
    group: TOOLS,
    default: '`20000`',
    meaning: '`bench:projections` only: the backlog of generated events absorbed for the throughput figure',
  },
  {
    name: 'BENCH_BATCHES_IN_FLIGHT',
    group: TOOLS,
    default: '`2`',
    meaning: '`bench:ledger` only: how many ledger group commits may run at once',
  },
];

interface Meta {
  description?: string;
  default?: string;
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; defaultValue?: unknown };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema itself and the ones it wraps (optional, default, pipe, ...), outermost first. */
function layers(schema: z.ZodType): z.ZodType[] {
  const out: z.ZodType[] = [];
  let at: z.ZodType | undefined = schema;
  while (at) {
    out.push(at);
    const def = defOf(at);
    at = def.innerType ?? def.in;
  }
  return out;
}

/** The field's meta: the outermost layer's description and default text win. */
export function fieldMeta(schema: z.ZodType): Meta {
  const found: Meta = {};
  for (const layer of layers(schema).reverse()) Object.assign(found, globalRegistry.get(layer) as Meta | undefined);
  return found;
}

const code = (s: string) => `\`${s}\``;
const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The default as the schema states it: `.default(v)`, else unset (optional) or required. */
export function defaultText(schema: z.ZodType): string {
  const meta = fieldMeta(schema);
  if (meta.default !== undefined) return meta.default;
  for (const layer of layers(schema)) {
    const def = defOf(layer);
    if (def.type === 'default') {
      const value = def.defaultValue;
      return code(Array.isArray(value) ? value.join(',') : String(value));
    }
    if (def.type === 'optional') return 'unset';
  }
  return 'required';
}

export interface ConfigRow {
  name: string;
  group: string;
  readBy: string[];
  default: string;
  meaning: string;
}

/** One row per variable, under the first group that reads it; the others' own words follow. */
export function configRows(
  sources: ConfigSource[] = configSources,
  unschemaed: UnschemaedVariable[] = unschemaedVariables,
): ConfigRow[] {
  const rows = new Map<string, ConfigRow & { meanings: Map<string, string> }>();
  const statedDefault = new Set<string>();
  for (const { group, schemas } of sources)
    for (const schema of schemas)
      for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
        const meta = fieldMeta(field);
        let row = rows.get(name);
        if (!row) {
          row = { name, group, readBy: [], default: defaultText(field), meaning: '', meanings: new Map() };
          rows.set(name, row);
          // A default text given where another group reads the variable speaks for the row too.
        } else if (meta.default !== undefined && !statedDefault.has(name)) row.default = meta.default;
        if (meta.default !== undefined) statedDefault.add(name);
        if (!row.readBy.includes(group)) row.readBy.push(group);
        const description = meta.description?.trim();
        if (description && ![...row.meanings.values()].includes(description) && !row.meanings.has(group))
          row.meanings.set(group, description);
      }
  for (const v of unschemaed) {
    if (rows.has(v.name)) throw new Error(`${v.name} is in a schema and in the hand-kept list: keep it in one`);
    rows.set(v.name, { ...v, readBy: [v.group], meanings: new Map([[v.group, v.meaning]]) });
  }
  return [...rows.values()].map(({ meanings, ...row }) => {
    const [first, ...others] = [...meanings.entries()];
    const parts = [first ? first[1] : '', ...others.map(([group, text]) => `${group}: ${text}`)];
    return { ...row, meaning: parts.filter(Boolean).join(' ') };
  });
}

/** The variables whose schema gives them no meaning (the test lists them). */
export const undescribed = (rows: ConfigRow[] = configRows()) => rows.filter((r) => !r.meaning).map((r) => r.name);

/** The README block: one table per group, in the sources' order, then the hand-kept groups. */
export function renderConfigTable(rows: ConfigRow[] = configRows()): string {
  const groups = [...new Set(rows.map((r) => r.group))];
  const out: string[] = [];
  for (const group of groups) {
    out.push(`**${group}**`, '', '| variable | default | meaning | also read by |', '|---|---|---|---|');
    for (const r of rows.filter((x) => x.group === group))
      out.push(
        `| ${code(r.name)} | ${cell(r.default)} | ${cell(r.meaning)} | ${r.readBy.slice(1).join(', ') || '—'} |`,
      );
    out.push('');
  }
  return out.join('\n').trimEnd();
}
