/**
 * IAM as AWS evaluates it for a function's calls: the identity policies attached to the function's
 * role in the template (inline and AWS::IAM::Policy), and the resource policies of SQS queues and S3
 * buckets, judged by a real policy evaluator (@cloud-copilot/iam-simulate). A call is allowed only
 * when the evaluator says Allowed for every resource it touches.
 */
import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { ACCOUNT, type ResolvedTemplate } from './template.ts';

type PolicyDocument = { Version?: string; Statement: unknown[] };

export interface Denial {
  function: string;
  action: string;
  resource: string;
  decision: string;
}

export class Iam {
  private readonly identity = new Map<string, { name: string; policy: PolicyDocument }[]>();
  /** Resource policies by the ARN of the queue or bucket they belong to. */
  private readonly resourcePolicies = new Map<string, PolicyDocument>();
  private readonly decisions = new Map<string, Promise<string>>();
  readonly denials: Denial[] = [];

  constructor(template: ResolvedTemplate) {
    for (const id of template.ofType('AWS::IAM::Role')) {
      const role = template.physical.get(id)?.ref as string;
      const inline =
        (template.properties(id).Policies as { PolicyName: string; PolicyDocument: PolicyDocument }[]) ?? [];
      this.identity.set(
        role,
        inline.map((policy) => ({ name: policy.PolicyName, policy: policy.PolicyDocument })),
      );
    }
    for (const id of template.ofType('AWS::IAM::Policy')) {
      const props = template.properties(id);
      for (const role of (props.Roles as string[]) ?? []) {
        this.identity
          .get(role)
          ?.push({ name: String(props.PolicyName), policy: props.PolicyDocument as PolicyDocument });
      }
    }
    const queueArnByUrl = new Map<string, string>();
    for (const id of template.ofType('AWS::SQS::Queue')) {
      const queue = template.physical.get(id);
      if (queue) queueArnByUrl.set(queue.ref, queue.attributes.Arn as string);
    }
    for (const id of template.ofType('AWS::SQS::QueuePolicy')) {
      const props = template.properties(id);
      for (const url of (props.Queues as string[]) ?? []) {
        const arn = queueArnByUrl.get(url);
        if (arn) this.resourcePolicies.set(arn, props.PolicyDocument as PolicyDocument);
      }
    }
    for (const id of template.ofType('AWS::S3::BucketPolicy')) {
      const props = template.properties(id);
      this.resourcePolicies.set(
        `arn:aws:s3:::${String(props.Bucket)}`,
        props.PolicyDocument as PolicyDocument,
      );
    }
  }

  /**
   * Whether `role` (assumed by `functionName`) may do `action` on `resource`; a refusal is recorded
   * in `denials`. Managed policies (AWSLambdaBasicExecutionRole) grant only log writes, which the
   * functions make through their output, not the SDK, so they are not consulted.
   */
  /** `context`: the request's own condition keys (`s3:prefix` of a listing). */
  async allows(
    role: string,
    functionName: string,
    action: string,
    resource: string,
    context: Record<string, string> = {},
  ): Promise<boolean> {
    const key = `${role}|${action}|${resource}|${JSON.stringify(context)}`;
    let decision = this.decisions.get(key);
    if (!decision) {
      decision = this.evaluate(role, functionName, action, resource, context);
      this.decisions.set(key, decision);
    }
    const result = await decision;
    if (result !== 'Allowed')
      this.denials.push({ function: functionName, action, resource, decision: result });
    return result === 'Allowed';
  }

  private async evaluate(
    role: string,
    functionName: string,
    action: string,
    resource: string,
    context: Record<string, string>,
  ): Promise<string> {
    const simulation: Simulation = {
      request: {
        principal: `arn:aws:sts::${ACCOUNT}:assumed-role/${role}/${functionName}`,
        action,
        resource: {
          resource,
          accountId: resource.startsWith('arn:aws:s3:::') ? ACCOUNT : (resource.split(':')[4] ?? ACCOUNT),
        },
        // Lambda reaches AWS over TLS: policies that refuse plain HTTP must not refuse these calls.
        contextVariables: {
          'aws:SecureTransport': 'true',
          'aws:PrincipalAccount': ACCOUNT,
          'aws:PrincipalArn': `arn:aws:iam::${ACCOUNT}:role/${role}`,
          ...context,
        },
      },
      identityPolicies: this.identity.get(role) ?? [],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      resourcePolicy: this.resourcePolicyOf(resource),
    };
    const response = await runSimulation(simulation, {});
    if (response.resultType === 'error') {
      throw new Error(
        `IAM evaluation of ${action} on ${resource}: ${JSON.stringify(response.errors).slice(0, 500)}`,
      );
    }
    return response.overallResult;
  }

  private resourcePolicyOf(resource: string): PolicyDocument | undefined {
    if (resource.startsWith('arn:aws:s3:::'))
      return this.resourcePolicies.get(`arn:aws:s3:::${resource.slice(13).split('/')[0]}`);
    return this.resourcePolicies.get(resource);
  }
}
