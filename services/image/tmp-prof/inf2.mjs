import * as ort from 'onnxruntime-node';
const file = process.argv[2];
const s = await ort.InferenceSession.create(file, { executionProviders: ['cpu'], intraOpNumThreads: 2, graphOptimizationLevel: 'all', enableCpuMemArena: false, enableMemPattern: false });
const input = new Float32Array(3*1024*1024).map(() => Math.random());
const t = new ort.Tensor('float32', input, [1,3,1024,1024]);
const times = [], rss = [];
for (let i = 0; i < 8; i++) { const t0 = performance.now(); await s.run({ input: t }, ['output']); times.push(Math.round(performance.now()-t0)); rss.push(Math.round(process.memoryUsage().rss/1048576)); }
const sorted = [...times].slice(1).sort((a,b)=>a-b);
console.log(process.env.TAG.padEnd(10), 'median', sorted[3], 'times', times.join(' '), '| rss', rss.join(' '), '| max', Math.round(process.resourceUsage().maxRSS/1024));
