/**
 * The deployed stack, run on this machine from its synthesized template alone (docs/testing.md
 * "The deployed-shape harness"): every Node function of the template in fresh Node processes, the
 * HTTP API in front of them, SQS with the event source mappings, the schedule rules on a clock the
 * test moves, DynamoDB, S3 and Secrets Manager stand-ins, and every AWS call checked against the
 * calling function's IAM policy.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ApiGateway, Permissions } from './api-gateway.ts';
import { AwsFront } from './aws.ts';
import { HarnessClock } from './clock.ts';
import { type FunctionSpec, LambdaFunction } from './functions.ts';
import { Iam } from './iam.ts';
import { Sqs, type SqsQueue } from './sqs.ts';
import { type CfnTemplate, type ResolvedTemplate, readTemplate, resolveTemplate } from './template.ts';
import { EventSourceMapping, type InvocationFailure, ScheduleRule } from './triggers.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
export const STACK_NAME = 'ConductorServerless';

export interface Assembly {
  dir: string;
  templatePath: string;
}

/**
 * `cdk synth` of the project's CDK app, as `cdk deploy` would run it, into a temporary cloud
 * assembly (functions bundled by the local esbuild). `context` holds `-c key=value` pairs.
 */
export async function synthesize(context: Record<string, string>): Promise<Assembly> {
  const dir = mkdtempSync(join(tmpdir(), 'deployed-assembly-'));
  const args = ['synth', '--quiet', '--output', dir, STACK_NAME];
  for (const [key, value] of Object.entries(context)) args.push('--context', `${key}=${value}`);
  await promisify(execFile)(join(ROOT, 'node_modules/.bin/cdk'), args, {
    cwd: ROOT,
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { dir, templatePath: join(dir, `${STACK_NAME}.template.json`) };
}

export interface DeployedStack {
  apiUrl: string;
  template: ResolvedTemplate;
  /** The application key the stack generates in Secrets Manager (keyId / keySecret of the SDKs). */
  key: { id: string; secret: string };
  clock: HarnessClock;
  functions: LambdaFunction[];
  queues: SqsQueue[];
  aws: AwsFront;
  iam: Iam;
  /** Invocations that failed (SQS batches, rules after their retries). */
  failures: InvocationFailure[];
  fn(logicalIdPrefix: string): LambdaFunction;
  queue(logicalIdPrefix: string): SqsQueue;
  /** Moves the clock and fires every schedule rule due by then (awaited). */
  advance(ms: number): Promise<void>;
  /**
   * One API call through the front door with a fresh token of the stack's key: the status, the
   * answer's text, and its JSON when it is JSON (else the text).
   */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>>;
  /** Waits until every event source mapping has nothing in flight and nothing receivable. */
  settled(): Promise<void>;
  logs(): string[];
  stop(): Promise<void>;
}

export interface ApiAnswer<T> {
  status: number;
  text: string;
  body: T;
}

export interface StartOptions {
  assembly: Assembly;
  /** A changed copy of the template (e.g. a grant removed); the assembly's own when absent. */
  template?: CfnTemplate;
  /** Copies every function's output to stderr, prefixed by its logical id. */
  echoLogs?: boolean;
}

export async function startDeployedStack(options: StartOptions): Promise<DeployedStack> {
  const raw = options.template ?? readTemplate(options.assembly.templatePath);
  const clock = new HarnessClock();
  // The AWS endpoint listens first: the queue URLs the template resolves to point at it.
  const front = await AwsFront.listen();
  const template = resolveTemplate(raw, STACK_NAME, front.endpoint);
  const iam = new Iam(template);
  const sqs = new Sqs(template, clock);
  await front.provision(template, sqs, iam);

  const failures: InvocationFailure[] = [];
  const functions: LambdaFunction[] = [];
  const byArn = new Map<string, LambdaFunction>();
  const byName = new Map<string, LambdaFunction>();
  for (const [index, id] of template.ofType('AWS::Lambda::Function').entries()) {
    const resource = raw.Resources[id];
    const assetPath = resource?.Metadata?.['aws:asset:path'];
    const props = template.properties(id);
    // Only the service's own Node functions; CDK's deploy-time providers (the UI upload) are not run.
    if (typeof assetPath !== 'string' || !String(props.Runtime).startsWith('nodejs')) continue;
    if (String(props.Runtime) !== 'nodejs22.x')
      throw new Error(`${id}: runtime ${String(props.Runtime)}, not nodejs22.x`);
    const physical = template.physical.get(id);
    const roleArn = String(props.Role);
    const spec: FunctionSpec = {
      logicalId: id,
      name: physical?.ref as string,
      arn: physical?.attributes.Arn as string,
      roleName: roleArn.split('/').pop() as string,
      taskRoot: join(options.assembly.dir, assetPath),
      handler: String(props.Handler),
      timeoutSeconds: Number(props.Timeout ?? 3),
      memoryMb: Number(props.MemorySize ?? 128),
      environment: Object.fromEntries(
        Object.entries(
          ((props.Environment as { Variables?: Record<string, unknown> })?.Variables ?? {}) as Record<
            string,
            unknown
          >,
        ).map(([name, value]) => [name, String(value)]),
      ),
      reserved:
        props.ReservedConcurrentExecutions === undefined
          ? undefined
          : Number(props.ReservedConcurrentExecutions),
    };
    const accessKeyId = `AKIAHARNESS${String(index).padStart(9, '0')}`;
    front.callers.set(accessKeyId, { role: spec.roleName, functionName: spec.name });
    const fn = new LambdaFunction(
      spec,
      { endpoint: front.endpoint, accessKeyId, secretAccessKey: `secret-${id}` },
      options.echoLogs === true,
      clock,
    );
    functions.push(fn);
    byArn.set(spec.arn, fn);
    byName.set(spec.name, fn);
  }
  const functionArn = (nameOrArn: string) =>
    nameOrArn.startsWith('arn:') ? nameOrArn : (byName.get(nameOrArn)?.spec.arn ?? nameOrArn);
  const permissions = new Permissions(template, functionArn);

  const mappings: EventSourceMapping[] = [];
  for (const id of template.ofType('AWS::Lambda::EventSourceMapping')) {
    const props = template.properties(id);
    const fn = byArn.get(functionArn(String(props.FunctionName)));
    const source = String(props.EventSourceArn);
    if (!fn) throw new Error(`${id}: no function ${String(props.FunctionName)}`);
    if (!source.startsWith('arn:aws:sqs:'))
      throw new Error(`${id}: only SQS sources are run by the harness (${source})`);
    // Lambda polls with the function's role: without these the mapping cannot be enabled.
    for (const action of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes']) {
      if (!(await iam.allows(fn.spec.roleName, fn.spec.name, action, source))) {
        throw new Error(
          `${id}: the role of ${fn.spec.name} may not ${action} on ${source}; the mapping cannot be enabled`,
        );
      }
    }
    const scaling = props.ScalingConfig as { MaximumConcurrency?: number } | undefined;
    mappings.push(
      new EventSourceMapping(
        sqs.byArn(source),
        sqs,
        fn,
        {
          batchSize: Number(props.BatchSize ?? 10),
          maxConcurrency: Number(scaling?.MaximumConcurrency ?? 1000),
          reportFailures: ((props.FunctionResponseTypes as string[]) ?? []).includes(
            'ReportBatchItemFailures',
          ),
        },
        failures,
      ),
    );
  }

  const rules: ScheduleRule[] = [];
  for (const id of template.ofType('AWS::Events::Rule')) {
    const props = template.properties(id);
    if (props.State === 'DISABLED' || props.ScheduleExpression === undefined) continue;
    const arn = template.physical.get(id)?.attributes.Arn as string;
    const targets = ((props.Targets as Record<string, unknown>[]) ?? []).map((target) => {
      const fn = byArn.get(String(target.Arn));
      if (!fn)
        throw new Error(`${id}: the harness runs only Lambda targets of schedules (${String(target.Arn)})`);
      if (!permissions.allows(fn.spec.arn, 'events.amazonaws.com', arn)) {
        throw new Error(
          `${id}: EventBridge may not invoke ${fn.spec.name} (no Lambda permission for the rule)`,
        );
      }
      const retry = target.RetryPolicy as { MaximumRetryAttempts?: number } | undefined;
      const deadLetter = target.DeadLetterConfig as { Arn?: string } | undefined;
      return { fn, retries: Number(retry?.MaximumRetryAttempts ?? 185), deadLetterArn: deadLetter?.Arn };
    });
    rules.push(new ScheduleRule(id, arn, String(props.ScheduleExpression), targets, sqs, failures, clock));
  }

  const api = new ApiGateway(template, byArn, permissions);
  const apiUrl = await api.listen();
  const secret = front.secrets[0];
  const key = secret ? (JSON.parse(secret.value) as { id: string; secret: string }) : { id: '', secret: '' };

  const findBy = <T>(items: T[], idOf: (item: T) => string, prefix: string, what: string): T => {
    const found = items.filter((item) => idOf(item).startsWith(prefix));
    if (found.length !== 1) throw new Error(`${found.length} ${what}s named ${prefix}…`);
    return found[0] as T;
  };
  const queueIds = new Map(
    template.ofType('AWS::SQS::Queue').map((id) => [template.physical.get(id)?.attributes.Arn as string, id]),
  );

  return {
    apiUrl,
    template,
    key,
    clock,
    functions,
    queues: sqs.queues,
    aws: front,
    iam,
    failures,
    fn: (prefix) => findBy(functions, (fn) => fn.spec.logicalId, prefix, 'function'),
    queue: (prefix) => findBy(sqs.queues, (queue) => queueIds.get(queue.arn) ?? '', prefix, 'queue'),
    async advance(ms) {
      clock.advance(ms);
      const now = clock.now();
      await Promise.all(rules.map((rule) => rule.catchUp(now)));
    },
    async request<T>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
      const token = (await (
        await fetch(`${apiUrl}/api/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ keyId: key.id, keySecret: key.secret }),
        })
      ).json()) as { token: string };
      const response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-authorization': token.token },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, text, body: parsed as T };
    },
    async settled() {
      await Promise.all(mappings.map((mapping) => mapping.settled()));
    },
    logs: () => functions.flatMap((fn) => fn.logs),
    async stop() {
      for (const mapping of mappings) mapping.stop();
      await api.close();
      await Promise.all(functions.map((fn) => fn.stop()));
      sqs.close();
      await front.close();
    },
  };
}
