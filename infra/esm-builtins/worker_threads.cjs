// node:worker_threads, reached without Node's ESM facade (infra/constructs/service-function.ts).
module.exports = process.getBuiltinModule('node:worker_threads');
