// Types of tests/load/harness.mjs for TypeScript callers (tests/load-smoke.e2e.spec.ts).
import type { ChildProcess } from 'node:child_process';

export interface Scenario {
  name: string;
  script: string;
  vus: number;
  againstBare: boolean;
  what: string;
}
export const SCENARIOS: readonly Scenario[];
export const LOAD_RATE_LIMITS: Readonly<Record<string, string>>;
export const loadDir: string;
export function freePort(): Promise<number>;
export function stopChildrenOnSignals(): void;

export interface Started {
  child: ChildProcess;
  match: RegExpMatchArray;
  output: () => string;
}
export function startProcess(
  label: string,
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
  options?: { logFile?: string; timeoutMs?: number },
): Promise<Started>;
export function stopProcess(child: ChildProcess): Promise<void>;
export function startBareExpress(): Promise<Started & { base: string; stop: () => Promise<void> }>;
export function startProduct(options?: {
  env?: Record<string, string | undefined>;
  nodeArgs?: string[];
  logFile?: string;
  timeoutMs?: number;
}): Promise<Started & { base: string; dataDir: string; stop: () => Promise<void> }>;

/** What a scenario's handleSummary writes (tests/load/scenarios/common.js). */
export interface ScenarioFigures {
  profile: 'load' | 'smoke';
  duration: string;
  seconds: number;
  requests: number;
  perSecond: number;
  p50?: number;
  p99?: number;
  max?: number;
  errorRate: number;
  checksFailed: number;
  iterations: number;
  iterationsPerSecond: number;
  dropped: number;
  thresholds: Record<string, boolean>;
  [extra: string]: unknown;
}
export function runK6(
  k6: string,
  script: string,
  env: Record<string, string | undefined>,
  options?: { summaryDir?: string },
): Promise<{ code: number | string | null; summary?: ScenarioFigures; stderr: string }>;
