// The GPU pool as the dashboard reads it: @kubernetes/client-node against a local HTTP fake of the
// API server's answers (nodes, pods), and the work queue's lag from real Kafka.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { testKafkaBus, type TestKafkaBus, waitFor } from '../../platform/test/support.js';
import { clusterAccess, readGpuPool } from '../src/adapters/gpu-pool.js';

const condition = (ok: boolean) => ({ status: { conditions: [{ type: 'Ready', status: ok ? 'True' : 'False' }] } });

describe('the GPU pool', { timeout: 120_000 }, () => {
  let api: Server;
  let kubeConfig: KubeConfig;
  let bus: TestKafkaBus;
  const seen: Array<{ path: string; auth: string | undefined }> = [];
  let refusePods = false;

  beforeAll(async () => {
    api = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      seen.push({ path: `${url.pathname}?${url.searchParams.get('labelSelector')}`, auth: req.headers.authorization });
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/api/v1/nodes')
        res.end(
          JSON.stringify({
            kind: 'NodeList',
            apiVersion: 'v1',
            metadata: {},
            items: [
              { metadata: { name: 'gpu-a' }, ...condition(true) },
              { metadata: { name: 'gpu-b' }, ...condition(false) },
            ],
          }),
        );
      else if (url.pathname === '/api/v1/namespaces/flatlay/pods' && !refusePods)
        res.end(
          JSON.stringify({
            kind: 'PodList',
            apiVersion: 'v1',
            metadata: {},
            items: [
              { metadata: { name: 'w1' }, ...condition(true) },
              { metadata: { name: 'w2' }, ...condition(true) },
              { metadata: { name: 'w3' }, ...condition(false) },
            ],
          }),
        );
      else {
        res.statusCode = 403;
        res.end(
          JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 }),
        );
      }
    });
    await new Promise<void>((ok) => api.listen(0, '127.0.0.1', ok));
    kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [
        { name: 'fake', server: `http://127.0.0.1:${(api.address() as { port: number }).port}`, skipTLSVerify: true },
      ],
      users: [{ name: 'analytics', token: 'service-account-token' }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'analytics' }],
      currentContext: 'fake',
    });
    bus = testKafkaBus(`gpu-pool-test-${randomUUID()}`);
  });
  afterAll(async () => {
    await bus?.close();
    await new Promise((ok) => api?.close(ok));
  });

  const options = (queueLag: () => Promise<number>) => ({
    kubeConfig,
    namespace: 'flatlay',
    nodeSelector: 'flatlay.dev/pool=gpu',
    workerSelector: 'app.kubernetes.io/component=image-worker',
    queueLag,
  });

  it('counts ready GPU nodes and worker pods with the service account token and the selectors', async () => {
    const pool = await readGpuPool(options(async () => 7));
    assert.deepEqual(pool, {
      inCluster: true,
      summary: '1/2 GPU nodes ready, 2/3 workers ready, queue lag 7',
      gpuNodes: 2,
      gpuNodesReady: 1,
      workerPods: 3,
      workerPodsReady: 2,
      queueLag: 7,
      problem: '',
    });
    assert.deepEqual(seen.map((s) => s.path).sort(), [
      '/api/v1/namespaces/flatlay/pods?app.kubernetes.io/component=image-worker',
      '/api/v1/nodes?flatlay.dev/pool=gpu',
    ]);
    assert.ok(seen.every((s) => s.auth === 'Bearer service-account-token'));
  });

  it('says which part it could not read and still answers the rest', async () => {
    refusePods = true;
    try {
      const pool = await readGpuPool(
        options(async () => {
          throw new Error('broker down');
        }),
      );
      assert.equal(pool.gpuNodes, 2);
      assert.equal(pool.workerPods, 0);
      assert.equal(pool.queueLag, -1);
      assert.equal(pool.problem, 'pods: HTTP 403; queue lag: broker down');
    } finally {
      refusePods = false;
    }
  });

  it("reads the queue lag as the workers' group's uncommitted messages on the topic", async () => {
    const topic = `gpu-pool-test-${randomUUID()}`;
    const group = `gpu-pool-workers-${randomUUID()}`;
    await bus.ensureTopics([{ name: topic, partitions: 2 }]);
    await bus.publish(
      Array.from({ length: 5 }, (_, i) => ({ topic, key: `k${i}`, value: Buffer.from('job'), headers: {} })),
    );
    assert.equal(await bus.consumerLag(group, topic), 5, 'a group that never committed starts at the earliest');
    let taken = 0;
    const workers = await bus.subscribe({ groupId: group, topics: [topic], handle: async () => void taken++ });
    try {
      await waitFor(async () => taken === 5 && (await bus.consumerLag(group, topic)) === 0, 'the lag drains', 60_000);
    } finally {
      await workers.close();
    }
  });

  it('outside a cluster there is nothing to read', () => {
    assert.equal(clusterAccess({}), undefined);
  });
});
