/**
 * The synthesized CloudFormation template, read as CloudFormation would deploy it: every resource
 * gets a physical name, ARN and (for queues) URL in one made-up account and region, and the
 * intrinsic functions the CDK emits (Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select, Fn::Split) are
 * resolved against them. Nothing here reads the project's source: what the harness runs is what the
 * template says.
 */
import { readFileSync } from 'node:fs';

export const ACCOUNT = '123456789012';
export const REGION = 'us-east-1';

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  DependsOn?: unknown;
}

export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** What CloudFormation would report for one resource: its Ref and its attributes. */
export interface Physical {
  ref: string;
  attributes: Record<string, string>;
}

export interface ResolvedTemplate {
  /** The template as synthesized (a copy may be edited before it is resolved: withoutGrant). */
  raw: CfnTemplate;
  physical: ReadonlyMap<string, Physical>;
  /** The resolved properties of a resource: every intrinsic replaced by its value. */
  properties(logicalId: string): Record<string, unknown>;
  /** The logical ids of every resource of a type, in template order. */
  ofType(type: string): string[];
}

export function readTemplate(path: string): CfnTemplate {
  return JSON.parse(readFileSync(path, 'utf8')) as CfnTemplate;
}

/**
 * Physical ids as CloudFormation makes them: a stated name where the template gives one, else
 * `<stack>-<logical id>` (CloudFormation adds a random suffix; a fixed one keeps runs repeatable).
 * `queueEndpoint` is where the harness's SQS answers: queue URLs point there.
 */
export function resolveTemplate(
  raw: CfnTemplate,
  stackName: string,
  queueEndpoint: string,
): ResolvedTemplate {
  const physical = new Map<string, Physical>();
  for (const [id, resource] of Object.entries(raw.Resources)) {
    physical.set(id, physicalOf(id, resource, stackName, queueEndpoint));
  }
  const pseudo: Record<string, string> = {
    'AWS::Region': REGION,
    'AWS::AccountId': ACCOUNT,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': stackName,
    'AWS::StackId': `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${stackName}/harness`,
    'AWS::NoValue': '',
  };
  const ref = (name: string): string => {
    const value = pseudo[name] ?? physical.get(name)?.ref;
    if (value === undefined) throw new Error(`Template: Ref to unknown '${name}'`);
    return value;
  };
  const attribute = (id: string, name: string): string => {
    const resource = physical.get(id);
    if (!resource) throw new Error(`Template: Fn::GetAtt of unknown resource '${id}'`);
    const value = resource.attributes[name];
    if (value === undefined)
      throw new Error(`Template: Fn::GetAtt ${id}.${name} is not known to the harness`);
    return value;
  };
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node as Record<string, unknown>);
    if (entries.length === 1) {
      const [[key, arg]] = entries as [[string, unknown]];
      switch (key) {
        case 'Ref':
          return ref(String(arg));
        case 'Fn::GetAtt': {
          const [id, name] = Array.isArray(arg) ? arg : String(arg).split('.');
          return attribute(String(id), String(name));
        }
        case 'Fn::Join': {
          const [separator, parts] = arg as [string, unknown[]];
          return (resolve(parts) as unknown[]).join(separator);
        }
        case 'Fn::Select': {
          const [index, list] = arg as [unknown, unknown];
          const items = resolve(list) as unknown[];
          const at = Number(resolve(index));
          if (!(at in items)) throw new Error(`Template: Fn::Select index ${at} out of range`);
          return items[at];
        }
        case 'Fn::Split': {
          const [separator, text] = arg as [string, unknown];
          return String(resolve(text)).split(separator);
        }
        case 'Fn::Sub': {
          const [text, vars] = Array.isArray(arg)
            ? (arg as [string, Record<string, unknown>])
            : [String(arg), {}];
          const values = resolve(vars) as Record<string, unknown>;
          return text.replace(/\$\{([^}!]+)\}/g, (_, name: string) => {
            if (name in values) return String(values[name]);
            const [id, attr] = name.split('.');
            return attr === undefined ? ref(name) : attribute(String(id), attr);
          });
        }
        default:
          if (key.startsWith('Fn::')) throw new Error(`Template: ${key} is not resolved by the harness`);
      }
    }
    return Object.fromEntries(entries.map(([key, value]) => [key, resolve(value)]));
  };
  const cache = new Map<string, Record<string, unknown>>();
  return {
    raw,
    physical,
    properties(logicalId) {
      let resolved = cache.get(logicalId);
      if (!resolved) {
        const resource = raw.Resources[logicalId];
        if (!resource) throw new Error(`Template: no resource '${logicalId}'`);
        resolved = resolve(resource.Properties ?? {}) as Record<string, unknown>;
        cache.set(logicalId, resolved);
      }
      return resolved;
    },
    ofType: (type) =>
      Object.entries(raw.Resources)
        .filter(([, resource]) => resource.Type === type)
        .map(([id]) => id),
  };
}

function physicalOf(id: string, resource: CfnResource, stack: string, queueEndpoint: string): Physical {
  const props = resource.Properties ?? {};
  const stated = (key: string): string | undefined =>
    typeof props[key] === 'string' ? (props[key] as string) : undefined;
  const generated = `${stack}-${id}`;
  const arnIn = (service: string, rest: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${rest}`;
  switch (resource.Type) {
    case 'AWS::DynamoDB::Table': {
      const name = stated('TableName') ?? generated;
      const arn = arnIn('dynamodb', `table/${name}`);
      return { ref: name, attributes: { Arn: arn, StreamArn: `${arn}/stream/harness` } };
    }
    case 'AWS::SQS::Queue': {
      const fifo = props.FifoQueue === true;
      const name = stated('QueueName') ?? (fifo ? `${generated}.fifo` : generated);
      const url = `${queueEndpoint}/${ACCOUNT}/${name}`;
      return { ref: url, attributes: { Arn: arnIn('sqs', name), QueueName: name, QueueUrl: url } };
    }
    case 'AWS::S3::Bucket': {
      const name = stated('BucketName') ?? generated.toLowerCase().slice(0, 63);
      return {
        ref: name,
        attributes: {
          Arn: `arn:aws:s3:::${name}`,
          DomainName: `${name}.s3.amazonaws.com`,
          RegionalDomainName: `${name}.s3.${REGION}.amazonaws.com`,
        },
      };
    }
    case 'AWS::Lambda::Function': {
      const name = stated('FunctionName') ?? generated;
      return { ref: name, attributes: { Arn: arnIn('lambda', `function:${name}`) } };
    }
    case 'AWS::IAM::Role': {
      const name = stated('RoleName') ?? generated;
      return { ref: name, attributes: { Arn: `arn:aws:iam::${ACCOUNT}:role/${name}`, RoleId: `AROA${id}` } };
    }
    case 'AWS::SecretsManager::Secret': {
      const name = stated('Name') ?? generated;
      const arn = arnIn('secretsmanager', `secret:${name}-AbCdEf`);
      return { ref: arn, attributes: { Id: arn } };
    }
    case 'AWS::Events::Rule': {
      const name = stated('Name') ?? generated;
      return { ref: name, attributes: { Arn: arnIn('events', `rule/${name}`) } };
    }
    case 'AWS::SNS::Topic': {
      const name = stated('TopicName') ?? generated;
      const arn = arnIn('sns', name);
      return { ref: arn, attributes: { TopicArn: arn, TopicName: name } };
    }
    case 'AWS::Logs::LogGroup': {
      const name = stated('LogGroupName') ?? `/aws/harness/${generated}`;
      return { ref: name, attributes: { Arn: arnIn('logs', `log-group:${name}:*`) } };
    }
    case 'AWS::ApiGatewayV2::Api':
      return {
        ref: id,
        attributes: { ApiEndpoint: `https://${id}.execute-api.${REGION}.amazonaws.com`, ApiId: id },
      };
    case 'AWS::Lambda::LayerVersion':
      return { ref: arnIn('lambda', `layer:${id}:1`), attributes: {} };
    case 'AWS::CloudFront::Distribution':
      return { ref: id, attributes: { DomainName: `${id.toLowerCase()}.cloudfront.net`, Id: id } };
    case 'AWS::CloudFront::Function':
      return { ref: id, attributes: { FunctionARN: `arn:aws:cloudfront::${ACCOUNT}:function/${id}` } };
    case 'AWS::CloudFront::OriginAccessControl':
      return { ref: id, attributes: { Id: id } };
    default:
      return { ref: id, attributes: {} };
  }
}
