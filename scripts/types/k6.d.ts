// The few k6 APIs the load scenarios use (tests/load/hot-path.js, tests/load/scenarios/*.js), so
// tsconfig.scripts.json can check them. k6 runs those files itself (not Node), and its types
// package (@types/k6) is not a dependency: declare only what is called, widen when a scenario
// needs more (https://grafana.com/docs/k6/latest/javascript-api/).

/** Environment of the k6 process plus every `-e NAME=value`. */
declare const __ENV: Record<string, string | undefined>;
/** The virtual user's number (1-based) and its iteration (0-based). */
declare const __VU: number;
declare const __ITER: number;
/** Reads a file relative to the script at init time; 'b' gives the bytes. */
declare function open(path: string, mode: 'b'): ArrayBuffer;
declare function open(path: string): string;

declare module 'k6' {
  export type Checkers<T> = Record<string, (value: T) => boolean>;
  export function check<T>(value: T, checkers: Checkers<T>, tags?: Record<string, string>): boolean;
  export function fail(message?: string): never;
  export function sleep(seconds: number): void;
}

declare module 'k6/http' {
  export interface Params {
    headers?: Record<string, string>;
    tags?: Record<string, string>;
    responseType?: 'text' | 'binary' | 'none';
    timeout?: string | number;
    responseCallback?: ExpectedStatuses;
  }
  /** Opaque: what http.expectedStatuses answers, for Params.responseCallback. */
  export interface ExpectedStatuses {
    readonly __expectedStatuses: unique symbol;
  }
  export interface Response {
    status: number;
    /** Text under the default responseType ('text'), which is all the scenarios use. */
    body: string;
    headers: Record<string, string>;
    timings: { duration: number; waiting: number };
    /** The body as JSON, or the value at a gjson path (`users`, `points.#`). */
    json(selector?: string): unknown;
  }
  export interface FileData {
    data: ArrayBuffer | string;
    filename?: string;
    content_type?: string;
  }
  export type RequestBody = string | ArrayBuffer | Record<string, string | FileData> | null;
  export type BatchRequest = [method: string, url: string, body?: RequestBody, params?: Params];
  function get(url: string, params?: Params): Response;
  function post(url: string, body?: RequestBody, params?: Params): Response;
  function batch(requests: BatchRequest[]): Response[];
  function file(data: ArrayBuffer | string, filename?: string, contentType?: string): FileData;
  function expectedStatuses(...statuses: Array<number | { min: number; max: number }>): ExpectedStatuses;
  const http: {
    get: typeof get;
    post: typeof post;
    batch: typeof batch;
    file: typeof file;
    expectedStatuses: typeof expectedStatuses;
  };
  export default http;
}

/** What k6 hands a script's handleSummary: per metric its figures and its thresholds' verdicts. */
declare module 'k6/summary' {
  export interface MetricSummary {
    type: 'counter' | 'gauge' | 'rate' | 'trend';
    values: Record<string, number>;
    thresholds?: Record<string, { ok: boolean }>;
  }
  export interface SummaryData {
    metrics: Record<string, MetricSummary | undefined>;
    state: { testRunDurationMs: number };
  }
}

declare module 'k6/metrics' {
  export class Trend {
    constructor(name: string, isTime?: boolean);
    add(value: number, tags?: Record<string, string>): void;
  }
  export class Rate {
    constructor(name: string);
    add(value: boolean | number, tags?: Record<string, string>): void;
  }
  export class Counter {
    constructor(name: string);
    add(value: number, tags?: Record<string, string>): void;
  }
}
