// node:os, reached without Node's ESM facade (infra/constructs/service-function.ts).
module.exports = process.getBuiltinModule('node:os');
