// node:stream/web, reached without Node's ESM facade (infra/constructs/service-function.ts).
module.exports = process.getBuiltinModule('node:stream/web');
