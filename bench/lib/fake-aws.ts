/**
 * One local endpoint standing in for the AWS services a function's first invocation may call, for
 * the cold-start benchmark (bench/cold-start.ts), where every SDK client is pointed at it through
 * AWS_ENDPOINT_URL:
 * - DynamoDB (`X-Amz-Target: DynamoDB_20120810.*`) is forwarded to an in-process dynalite;
 * - Secrets Manager's GetSecretValue answers the given secret string (the API keys);
 * - SQS SendMessage and SendMessageBatch (AWS JSON protocol) are accepted and dropped, answered
 *   with the body digests the SDK checks.
 * Anything else answers 400 UnknownOperationException and is counted, so a benchmark can tell a
 * call it did not expect.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAws {
  endpoint: string;
  /** Requests by `X-Amz-Target` (or method and path when there is none), since start or reset. */
  calls(): Record<string, number>;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeAws(options: { dynamodb: string; secretString: string }): Promise<FakeAws> {
  let calls: Record<string, number> = {};
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const target = String(req.headers['x-amz-target'] ?? `${req.method} ${req.url}`);
      calls[target] = (calls[target] ?? 0) + 1;
      if (target.startsWith('DynamoDB_')) return forward(options.dynamodb, req, body, res);
      if (target === 'secretsmanager.GetSecretValue') {
        const { SecretId } = JSON.parse(body.toString('utf8')) as { SecretId: string };
        return answer(res, 200, {
          ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${SecretId}`,
          Name: SecretId,
          SecretString: options.secretString,
          VersionId: 'bench',
        });
      }
      if (target === 'AmazonSQS.SendMessage') {
        const { MessageBody } = JSON.parse(body.toString('utf8')) as { MessageBody: string };
        return answer(res, 200, { MessageId: randomUUID(), MD5OfMessageBody: md5(MessageBody) });
      }
      if (target === 'AmazonSQS.SendMessageBatch') {
        const { Entries } = JSON.parse(body.toString('utf8')) as {
          Entries: { Id: string; MessageBody: string }[];
        };
        return answer(res, 200, {
          Successful: Entries.map((entry) => ({
            Id: entry.Id,
            MessageId: randomUUID(),
            MD5OfMessageBody: md5(entry.MessageBody),
          })),
          Failed: [],
        });
      }
      // S3 ListObjectsV2 (the payload sweep's listing): an empty bucket.
      if (req.method === 'GET' && /[?&]list-type=2/.test(req.url ?? '')) {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>',
        );
        return;
      }
      return answer(res, 400, { __type: 'UnknownOperationException', message: `Not faked: ${target}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls: () => ({ ...calls }),
    reset: () => {
      calls = {};
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
  });
  res.end(text);
}

function forward(endpoint: string, req: IncomingMessage, body: Buffer, res: ServerResponse): void {
  const upstream = request(
    `${endpoint}${req.url ?? '/'}`,
    { method: req.method, headers: { ...req.headers, host: new URL(endpoint).host } },
    (answered) => {
      res.writeHead(answered.statusCode ?? 500, answered.headers);
      answered.pipe(res);
    },
  );
  upstream.on('error', (error) => answer(res, 500, { __type: 'InternalFailure', message: error.message }));
  upstream.end(body);
}
