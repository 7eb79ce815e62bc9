import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * How many threads ONNX Runtime's intra-op pool gets. os.availableParallelism() counts the CPUs
 * the process may be scheduled on (its affinity), not what a container is allowed to use: a pod
 * limited to 2 CPUs on a 64-core node sees 64, and 64 spinning threads sharing a 2-CPU quota are
 * throttled far below 2 threads' speed. So the count is the smaller of the two, the quota rounded
 * up (1.5 CPUs: 2 threads), divided among the engines one process hosts (each has its own pool).
 */
export interface CpuBudget {
  /** os.availableParallelism(): CPUs the process may run on. */
  parallelism: number;
  /** The cgroup's CPU quota in CPUs (quota / period), or undefined when there is none. */
  quotaCpus?: number;
  /** Engines (each with its own ONNX Runtime session) that share these CPUs. Default 1. */
  engines?: number;
}

export function intraOpThreads({ parallelism, quotaCpus, engines = 1 }: CpuBudget): number {
  let cores = Math.max(1, Math.floor(parallelism));
  if (quotaCpus !== undefined && Number.isFinite(quotaCpus) && quotaCpus > 0)
    cores = Math.min(cores, Math.max(1, Math.ceil(quotaCpus - 1e-9)));
  return Math.max(1, Math.floor(cores / Math.max(1, Math.floor(engines))));
}

/** cgroup v2 `cpu.max` ("200000 100000", or "max 100000" for no limit) in CPUs. */
export function parseCpuMax(text: string): number | undefined {
  const [quota, period] = text.trim().split(/\s+/);
  if (!quota || quota === 'max') return undefined;
  return cpus(Number(quota), Number(period ?? 100000));
}

/** cgroup v1 `cpu.cfs_quota_us` (-1: no limit) and `cpu.cfs_period_us` in CPUs. */
export function parseCfs(quotaText: string, periodText: string): number | undefined {
  return cpus(Number(quotaText.trim()), Number(periodText.trim()));
}

function cpus(quota: number, period: number): number | undefined {
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return undefined;
  return quota / period;
}

/** The process's cgroup CPU quota (v2, then v1), or undefined where there is none or it cannot be read. */
export function cgroupQuotaCpus(root = '/sys/fs/cgroup'): number | undefined {
  const read = (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  };
  const v2 = read(`${root}/cpu.max`);
  if (v2 !== undefined) return parseCpuMax(v2);
  const quota = read(`${root}/cpu/cpu.cfs_quota_us`) ?? read(`${root}/cpu,cpuacct/cpu.cfs_quota_us`);
  const period = read(`${root}/cpu/cpu.cfs_period_us`) ?? read(`${root}/cpu,cpuacct/cpu.cfs_period_us`);
  return quota !== undefined && period !== undefined ? parseCfs(quota, period) : undefined;
}

/** This process's threads per engine: the CPUs it may use and is allowed, shared by `engines`. */
export function threadsForEngines(engines = 1): { threads: number; parallelism: number; quotaCpus?: number } {
  const parallelism = availableParallelism();
  const quotaCpus = cgroupQuotaCpus();
  return { threads: intraOpThreads({ parallelism, quotaCpus, engines }), parallelism, quotaCpus };
}
