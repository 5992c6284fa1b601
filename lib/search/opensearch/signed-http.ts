/**
 * The OpenSearch REST adapter's transport: requests signed with AWS Signature V4 (@smithy's
 * signer, the one the AWS SDK itself uses; no OpenSearch client library) and sent with fetch.
 * OpenSearch Serverless signs as service `aoss`, a managed domain as `es`; Serverless also wants
 * the payload hash as an `x-amz-content-sha256` header, which is set on every request here.
 * Throttling and server errors are transient (the caller's retry: a stream batch delivered again,
 * a 503 to a search); other failures are errors.
 */
import { createHash, createHmac, type Hmac, type Hash as NodeHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentityProvider, Hash, SourceData } from '@smithy/types';
import { TransientError } from '../../model/errors.ts';

export interface OpenSearchEndpoint {
  /** e.g. https://abc123.us-east-1.aoss.amazonaws.com */
  url: string;
  region: string;
  /** `aoss` (Serverless collection) or `es` (managed domain). */
  service: 'aoss' | 'es';
}

export interface OpenSearchResponse {
  status: number;
  body: unknown;
}

/** What the OpenSearch adapter needs of a transport. */
export interface OpenSearchHttp {
  request(method: string, path: string, body?: string, contentType?: string): Promise<OpenSearchResponse>;
}

const bytesOf = (data: SourceData): Buffer =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** SHA-256 (an HMAC with a secret) over node:crypto, in the shape the signer takes. */
class Sha256 implements Hash {
  private readonly hash: NodeHash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

export class SignedOpenSearchHttp implements OpenSearchHttp {
  private readonly signer: SignatureV4;
  private readonly base: URL;

  constructor(
    endpoint: OpenSearchEndpoint,
    credentials: AwsCredentialIdentityProvider,
    private readonly send: typeof fetch = fetch,
  ) {
    this.base = new URL(endpoint.url);
    this.signer = new SignatureV4({
      credentials,
      region: endpoint.region,
      service: endpoint.service,
      sha256: Sha256,
    });
  }

  async request(
    method: string,
    path: string,
    body?: string,
    contentType = 'application/json',
  ): Promise<OpenSearchResponse> {
    const payload = body ?? '';
    const headers: Record<string, string> = {
      host: this.base.host,
      'x-amz-content-sha256': createHash('sha256').update(payload).digest('hex'),
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    };
    const signed = await this.signer.sign({
      method,
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      port: this.base.port === '' ? undefined : Number(this.base.port),
      path,
      query: {},
      headers,
      body: body,
    });
    // fetch sets Host itself (from the URL, the value signed above).
    const { host: _host, ...sent } = signed.headers;
    const response = await this.send(new URL(path, this.base), {
      method,
      headers: sent,
      body: body,
    }).catch((error: unknown) => {
      throw new TransientError(`OpenSearch unreachable: ${error instanceof Error ? error.message : error}`);
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): kept as text for the error message.
    }
    if (response.status === 429 || response.status >= 500) {
      throw new TransientError(`OpenSearch answered ${response.status} to ${method} ${path}`);
    }
    return { status: response.status, body: parsed };
  }
}
