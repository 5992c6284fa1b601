/**
 * S3 on AWS: the `s3Payloads` adapter of the functions the stack names the payload bucket to.
 */
import type { PayloadStore } from '../../payloads/ports.ts';
import type { AwsAdapter } from '../aws.ts';

/**
 * The payload store on S3, where the stack names the payload bucket (and grants its `payloads/`
 * prefix: FunctionGrants.payloads). Payloads go there only when they are large, so the S3 client
 * is loaded on the first use: its module is in the bundle, but not evaluated at a cold start.
 */
export const s3Payloads: AwsAdapter = ({ config }) => {
  const bucket = config.string('service.aws.payload-bucket');
  if (bucket === undefined) return {};
  let store: Promise<PayloadStore> | undefined;
  const s3 = () => {
    store ??= import('../../payloads/s3.ts').then((module) => module.s3PayloadStore(bucket));
    return store;
  };
  const payloads: PayloadStore = {
    put: async (key, json) => (await s3()).put(key, json),
    get: async (key) => (await s3()).get(key),
    presign: async (key, operation, expiresIn) => {
      const s3Store = await s3();
      if (!s3Store.presign) throw new Error('This payload store presigns no URL');
      return s3Store.presign(key, operation, expiresIn);
    },
    // The payload sweep's (lib/payloads/sweep.ts): list `payloads/`, tag what nothing names.
    list: async function* () {
      const s3Store = await s3();
      if (!s3Store.list) throw new Error('This payload store cannot be listed');
      yield* s3Store.list();
    },
    reclaim: async (key, writtenAt) => {
      const s3Store = await s3();
      if (!s3Store.reclaim) throw new Error('This payload store reclaims nothing');
      return s3Store.reclaim(key, writtenAt);
    },
  };
  return { payloads };
};
