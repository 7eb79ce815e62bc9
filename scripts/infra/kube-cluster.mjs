// A real Kubernetes control plane with simulated nodes, for tests (ADR 0302): etcd,
// kube-apiserver, kube-controller-manager and kube-scheduler of one pinned version, and kwok
// standing in for the kubelets. Everything listens on free loopback ports and keeps its data in
// a temporary folder, so several can run side by side; `stop()` ends exactly what `start` began.
//
//   const cluster = await startCluster({ version: 'v1.37.2' });
//   await cluster.kubectl(['get', 'nodes']);  cluster.env (KUBECONFIG for helm)  await cluster.stop();

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { freePorts, killPid, run, sleep, spawnDaemon, waitFor } from './process.mjs';
import { installControlPlane } from './kube-tools.mjs';

/** The annotation kwok's nodes carry: kwok manages only those, never a real node. */
export const KWOK_NODE_ANNOTATION = { key: 'kwok.x-k8s.io/node', value: 'fake' };

/** GET an API path with the admin token; resolves to [status, body]. */
/** @param {number} port @param {string} token @param {string} pathname @returns {Promise<[number, string]>} */
function apiGet(port, token, pathname) {
  return new Promise((resolve, reject) => {
    const req = https.get(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        headers: { authorization: `Bearer ${token}` },
        rejectUnauthorized: false,
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve([res.statusCode ?? 0, body]));
      },
    );
    req.on('error', reject);
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
  });
}

/**
 * Starts the control plane and kwok; resolves once the API server is ready, the controllers and
 * scheduler are running and the `default` ServiceAccount exists.
 * @param {{ version?: string, keep?: boolean }} [options]
 * @returns {Promise<import('./kube-cluster.d.mts').Cluster>}
 */
export async function startCluster({ version = VERSIONS.kubernetes, keep = false } = {}) {
  const tools = await installControlPlane(version);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `flatlay-k8s-${version}-`));
  const [etcdPort, etcdPeerPort, apiPort, kwokPort] = await freePorts(4);
  const token = randomBytes(24).toString('hex');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const saKey = path.join(dir, 'sa.key');
  const saPub = path.join(dir, 'sa.pub');
  fs.writeFileSync(saKey, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  fs.writeFileSync(saPub, publicKey.export({ type: 'spki', format: 'pem' }));
  const tokens = path.join(dir, 'tokens.csv');
  fs.writeFileSync(tokens, `${token},admin,admin,system:masters\n`, { mode: 0o600 });
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters:
  - name: kwok
    cluster:
      server: https://127.0.0.1:${apiPort}
      insecure-skip-tls-verify: true
users:
  - name: admin
    user:
      token: ${token}
contexts:
  - name: kwok
    context: { cluster: kwok, user: admin }
current-context: kwok
`,
    { mode: 0o600 },
  );

  /** @type {Array<{ name: string, pid: number | undefined, needle: string, child: import('node:child_process').ChildProcess }>} */
  const procs = [];
  /** @param {string} name */
  const logOf = (name) => path.join(dir, `${name}.log`);
  /** @param {string} name @param {string} bin @param {string[]} args */
  const start = (name, bin, args) => {
    const child = spawnDaemon(bin, args, logOf(name), { cwd: dir });
    procs.push({ name, pid: child.pid, needle: path.basename(bin), child });
    return child;
  };

  const stop = async () => {
    for (const p of [...procs].reverse()) await killPid(p.pid, p.needle, { graceMs: 5000, group: true });
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    const t = Date.now();
    const etcd = start('etcd', tools.etcd, [
      '--name=flatlay',
      `--data-dir=${path.join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-cluster=flatlay=http://127.0.0.1:${etcdPeerPort}`,
      // A throwaway store: durability buys nothing here and fsyncs cost seconds on a busy disk.
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]);
    await waitFor(
      'etcd',
      async () => {
        const r = await fetch(`http://127.0.0.1:${etcdPort}/health`);
        return r.ok && /** @type {{ health?: string }} */ (await r.json()).health === 'true';
      },
      { timeoutMs: 60_000, child: etcd, logFile: logOf('etcd') },
    );
    const apiserver = start('kube-apiserver', tools.bin['kube-apiserver'], [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      // Loopback only (nothing here is reachable from outside): the API server refuses a loopback
      // advertise address while it keeps the kubernetes Service's endpoints, and no simulated Pod
      // calls it back, so that reconciler is off.
      '--endpoint-reconciler-type=none',
      `--secure-port=${apiPort}`,
      `--cert-dir=${path.join(dir, 'certs')}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${saPub}`,
      `--service-account-signing-key-file=${saKey}`,
      `--token-auth-file=${tokens}`,
      '--service-cluster-ip-range=10.96.0.0/16',
      '--authorization-mode=Node,RBAC',
      // The default admission chain, Pod Security included; namespaces choose their level.
      '--allow-privileged=false',
      '--profiling=false',
    ]);
    await waitFor(
      'kube-apiserver',
      async () => {
        const [status] = await apiGet(apiPort, token, '/readyz');
        return status === 200;
      },
      { timeoutMs: 120_000, child: apiserver, logFile: logOf('kube-apiserver') },
    );
    const common = [`--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--secure-port=0'];
    start('kube-controller-manager', tools.bin['kube-controller-manager'], [
      ...common,
      `--service-account-private-key-file=${saKey}`,
      '--controllers=*',
      // Simulated nodes have no kubelet to evict from: keep their pods where they are.
      '--node-monitor-grace-period=1h',
    ]);
    start('kube-scheduler', tools.bin['kube-scheduler'], common);
    start('kwok', tools.kwok, [
      `--kubeconfig=${kubeconfig}`,
      `--config=${tools.kwokStages}`,
      '--manage-all-nodes=false',
      `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION.key}=${KWOK_NODE_ANNOTATION.value}`,
      '--cidr=10.0.0.0/16',
      '--node-ip=10.255.0.1',
      `--node-port=${kwokPort}`,
    ]);
    // The ServiceAccount controller making `default` shows the controller manager is working.
    await waitFor(
      'kube-controller-manager',
      async () => {
        const [status] = await apiGet(apiPort, token, '/api/v1/namespaces/default/serviceaccounts/default');
        return status === 200;
      },
      { timeoutMs: 120_000, logFile: logOf('kube-controller-manager') },
    );
    log(`kubernetes ${version}: control plane ready in ${((Date.now() - t) / 1000).toFixed(1)} s (${dir})`);
  } catch (e) {
    await stop();
    throw e;
  }

  const env = { ...process.env, KUBECONFIG: kubeconfig };
  /**
   * Runs kubectl against this cluster; `input` goes to its stdin. Resolves to { status, stdout, stderr }.
   * @param {string[]} args @param {{ input?: string }} [opts]
   */
  const kubectl = (args, { input } = {}) => runWithInput(tools.bin.kubectl, args, { env, input });
  return {
    version,
    dir,
    kubeconfig,
    env,
    apiPort,
    tools,
    kubectl,
    get: (/** @type {string} */ pathname) => apiGet(apiPort, token, pathname),
    logs: (/** @type {string} */ name) => fs.readFileSync(logOf(name), 'utf8'),
    alive: () => procs.every((p) => p.child.exitCode === null),
    stop,
  };
}

/**
 * Runs a command with optional stdin; never rejects on a non-zero exit (callers assert on it).
 * @param {string} cmd @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, input?: string, cwd?: string }} [opts]
 * @returns {Promise<import('./kube-cluster.d.mts').RunResult>}
 */
export async function runWithInput(cmd, args, { env, input, cwd } = {}) {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status: status ?? 1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/**
 * Node objects for kwok: `count` nodes of one pool, spread round-robin over `zones`, with the
 * labels, taints and capacity given (kwok marks them Ready and keeps their leases).
 */
/** @param {Parameters<typeof import('./kube-cluster.d.mts').kwokNodes>[0]} options @returns {object[]} */
export function kwokNodes({ pool, count, zones, capacity, labels = {}, taints = [] }) {
  return Array.from({ length: count }, (_, i) => {
    const name = `${pool}-${i}`;
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        annotations: { [KWOK_NODE_ANNOTATION.key]: KWOK_NODE_ANNOTATION.value, 'node.alpha.kubernetes.io/ttl': '0' },
        labels: {
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          'topology.kubernetes.io/zone': zones[i % zones.length],
          type: 'kwok',
          ...labels,
        },
      },
      spec: { taints },
      // kwok fills the rest of the status (conditions, node info) as a kubelet would.
      status: { capacity, allocatable: capacity },
    };
  });
}

export { sleep, run };

/** The Kubernetes version the k8s tier runs (FLATLAY_KUBE_VERSION, else the newest pinned). */
export const kubeVersionUnderTest = () => process.env.FLATLAY_KUBE_VERSION || VERSIONS.kubernetes;
