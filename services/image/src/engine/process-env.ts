/**
 * The malloc settings an engine worker process runs with. glibc reads them once, at process
 * start, so they live in the environment of whoever starts the worker (the chart's image-worker,
 * `npm run bench:engine`'s measured child), not in code that runs later.
 *
 * - MALLOC_ARENA_MAX=2: glibc otherwise gives each of ONNX Runtime's and libvips' threads its own
 *   arena, and freed memory scatters over them (about 150 MB more peak RSS).
 * - MALLOC_MMAP_THRESHOLD_=131072: a fixed threshold. glibc's dynamic one rises after every large
 *   free, after which image-sized buffers come from the heap and stay resident when freed. Fixed,
 *   every buffer of 128 KB or more is mapped and unmapped on its own, so memory goes back to the
 *   system after each stage. That is what makes ONNX Runtime's own memory arena affordable: it
 *   keeps the inference's tensors allocated between runs (no page faults on fresh memory, about
 *   15% faster inference) while the process still peaks under 1 GB at 24 MP.
 */
export const WORKER_MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/** `env` with the worker's malloc settings filled in where it does not set them itself. */
export function withWorkerMalloc(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...WORKER_MALLOC_ENV, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
}
