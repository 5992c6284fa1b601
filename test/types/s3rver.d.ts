// s3rver ships no types; this is the part of its API the S3 payload store and file tests use.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    configureBuckets(): Promise<void>;
    /** The request listener of its HTTP server. */
    getMiddleware(): (
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
    ) => void;
    close(): Promise<void>;
  }
}
