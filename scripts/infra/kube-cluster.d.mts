// Types of kube-cluster.mjs for the TypeScript tests (tests/k8s).

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

export interface Cluster {
  version: string;
  dir: string;
  kubeconfig: string;
  env: NodeJS.ProcessEnv;
  apiPort: number;
  tools: { bin: Record<string, string>; etcd: string; kwok: string; kwokStages: string; crds: string[] };
  kubectl(args: string[], options?: { input?: string }): Promise<RunResult>;
  get(pathname: string): Promise<[number, string]>;
  logs(name: string): string;
  alive(): boolean;
  stop(): Promise<void>;
}

export const KWOK_NODE_ANNOTATION: { key: string; value: string };
export function startCluster(options?: { version?: string; keep?: boolean }): Promise<Cluster>;
export function runWithInput(
  cmd: string,
  args: string[],
  options?: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string },
): Promise<RunResult>;
export function kwokNodes(options: {
  pool: string;
  count: number;
  zones: string[];
  capacity: Record<string, string>;
  labels?: Record<string, string>;
  taints?: Array<{ key: string; value?: string; effect: string }>;
}): object[];
export function kubeVersionUnderTest(): string;
export function sleep(ms: number): Promise<void>;
