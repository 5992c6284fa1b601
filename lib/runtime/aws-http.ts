/**
 * The Lambda handler of one capability's routes (functions/<capability>.ts), behind API Gateway:
 * the composition root's services (lib/runtime/aws.ts) plus the API keys, read from the stack's
 * Secrets Manager secret where security is on.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AnyCapability } from '../capabilities.ts';
import { type LambdaAdapterOptions, lambdaHttpHandler } from '../http/lambda-adapter.ts';
import { beginInvocation } from '../log/invocation.ts';
import { systemClock } from '../model/clock.ts';
import { refreshingKeys } from '../security/refreshing-keys.ts';
import { type AwsAdapter, awsServices, type FunctionParts } from './aws.ts';
import { createRouter } from './router.ts';

/** The handler of `group`'s routes, over a function made of `parts` (which include the group). */
export function httpGroupHandler(group: AnyCapability, parts: FunctionParts) {
  const services = awsServices({ ...parts, adapters: [...parts.adapters, apiKeys] });
  let adapter: Promise<LambdaAdapterOptions> | undefined;
  const handle = lambdaHttpHandler(() => {
    adapter ??= services().then((s) => ({
      router: createRouter(s, group.name),
      logger: s.logger,
      instance: s.config.requireString('service.instance-id'),
      maxBodyBytes: s.config.number('service.server.max-body-bytes'),
    }));
    return adapter;
  });
  return (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    // API Gateway's request id: the same as in the stage's access log line.
    beginInvocation(event.requestContext.requestId);
    return handle(event);
  };
}

/** The API keys in the stack's Secrets Manager secret, where the stack gave its name (security on). */
const apiKeys: AwsAdapter = ({ config }) => {
  const secret = config.string('service.security.keys-secret');
  return secret === undefined
    ? {}
    : { apiKeys: refreshingKeys(secretReader(new SecretsManagerClient({}), secret), secret, systemClock) };
};

/** Reads a Secrets Manager secret's string (the API keys' source on AWS). */
export function secretReader(
  client: SecretsManagerClient,
  secretId: string,
): () => Promise<string | undefined> {
  return async () => (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
}
