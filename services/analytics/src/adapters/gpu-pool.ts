// The GPU node pool on the dashboard: ready GPU nodes, image-worker pods and their readiness from
// the Kubernetes API (read-only: get/list on nodes and pods, granted by the chart), and the queue
// lag of the generation topic from Kafka. Outside a cluster it says so and reads nothing.
import { readFileSync } from 'node:fs';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

export interface GpuPool {
  inCluster: boolean;
  /** One line for the dashboard. */
  summary: string;
  gpuNodes: number;
  gpuNodesReady: number;
  workerPods: number;
  workerPodsReady: number;
  /** Generation jobs published and not yet taken by the workers' consumer group; -1 when unknown. */
  queueLag: number;
  /** Why a part could not be read ("" when all was read). */
  problem: string;
}

export interface GpuPoolOptions {
  /** The API server's client (in a pod: the service account's, from loadFromCluster). */
  kubeConfig: KubeConfig;
  namespace: string;
  /** Label selector of the GPU nodes, e.g. nvidia.com/gpu.present=true. */
  nodeSelector: string;
  /** Label selector of the image-worker pods. */
  workerSelector: string;
  /** The generation topic's lag for the worker group. */
  queueLag: () => Promise<number>;
}

const ready = (conditions: Array<{ type: string; status: string }> | undefined) =>
  Boolean(conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));

const reason = (error: unknown) => {
  const e = error as { code?: number; message?: string };
  return e.code ? `HTTP ${e.code}` : (e.message ?? String(error)).split('\n')[0]!.slice(0, 200);
};

export const outsideCluster: GpuPool = {
  inCluster: false,
  summary: 'not in a cluster',
  gpuNodes: 0,
  gpuNodesReady: 0,
  workerPods: 0,
  workerPodsReady: 0,
  queueLag: -1,
  problem: '',
};

/** Reads the pool once (each dashboard refresh asks again: nothing is cached). */
export async function readGpuPool(o: GpuPoolOptions): Promise<GpuPool> {
  const api = o.kubeConfig.makeApiClient(CoreV1Api);
  const problems: string[] = [];
  const [nodes, pods, lag] = await Promise.all([
    api.listNode({ labelSelector: o.nodeSelector }).catch((e) => {
      problems.push(`nodes: ${reason(e)}`);
      return undefined;
    }),
    api.listNamespacedPod({ namespace: o.namespace, labelSelector: o.workerSelector }).catch((e) => {
      problems.push(`pods: ${reason(e)}`);
      return undefined;
    }),
    o.queueLag().catch((e) => {
      problems.push(`queue lag: ${reason(e)}`);
      return -1;
    }),
  ]);
  const gpuNodes = nodes?.items.length ?? 0;
  const gpuNodesReady = nodes?.items.filter((n) => ready(n.status?.conditions)).length ?? 0;
  const workerPods = pods?.items.length ?? 0;
  const workerPodsReady = pods?.items.filter((p) => ready(p.status?.conditions)).length ?? 0;
  return {
    inCluster: true,
    summary: `${gpuNodesReady}/${gpuNodes} GPU nodes ready, ${workerPodsReady}/${workerPods} workers ready, queue lag ${lag < 0 ? 'unknown' : lag}`,
    gpuNodes,
    gpuNodesReady,
    workerPods,
    workerPodsReady,
    queueLag: lag,
    problem: problems.sort().join('; '),
  };
}

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** In a pod: the service account's API client and namespace; outside one: undefined. */
export function clusterAccess(env: NodeJS.ProcessEnv): { kubeConfig: KubeConfig; namespace: string } | undefined {
  if (!env.KUBERNETES_SERVICE_HOST) return undefined;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromCluster();
  let namespace = env.POD_NAMESPACE ?? '';
  if (!namespace)
    try {
      namespace = readFileSync(`${SERVICE_ACCOUNT}/namespace`, 'utf8').trim();
    } catch {
      namespace = 'default';
    }
  return { kubeConfig, namespace };
}
