// Entry of the HNSW benchmark's worker thread: registers tsx (worker threads do not inherit its loader), then
// serves the build.
process.env.RANKLAB_BENCH_WORKER = '1';
require('tsx/cjs');
require('./hnsw-build-worker.ts');
