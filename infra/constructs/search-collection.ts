/**
 * The search index of `searchBackend=opensearch`: an OpenSearch Serverless collection (type SEARCH)
 * with its encryption policy (AWS-owned key), network policy (reachable over HTTPS from Lambda
 * outside a VPC; every request still needs a SigV4 signature the data access policy accepts) and a
 * data access policy naming exactly the roles granted here, per index pattern:
 *   readers (the search routes): DescribeIndex and ReadDocument on `<prefix>-*`;
 *   writers (the indexer): also CreateIndex, UpdateIndex and WriteDocument.
 * A role also needs IAM `aoss:APIAccessAll` on the collection, granted beside it.
 * Why Serverless rather than a domain: a deployment that outgrows one table should not then have
 * to size, patch and watch a cluster (instance types, disk, blue/green updates); a collection scales
 * its compute itself and is three small resources in this stack. Its cost is a floor of OCUs billed
 * while it exists (README "Search" says so); a domain would be cheaper for a small index.
 */
import { Lazy, Stack } from 'aws-cdk-lib';
import { type IGrantable, type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { CfnAccessPolicy, CfnCollection, CfnSecurityPolicy } from 'aws-cdk-lib/aws-opensearchserverless';
import { Construct } from 'constructs';
import type { TableAccess } from '../../lib/deployment.ts';

export interface SearchCollectionProps {
  /** Collection (and policy) name: 3 to 28 characters, lower-case letters, digits and hyphens. */
  name: string;
  /** The indexes the service uses, `<prefix>-workflows` and `<prefix>-tasks`. */
  indexPrefix: string;
}

const READ = ['aoss:DescribeIndex', 'aoss:ReadDocument'];
const WRITE = [...READ, 'aoss:CreateIndex', 'aoss:UpdateIndex', 'aoss:WriteDocument'];

/** A collection name from a stack name: lower case, hyphens for anything else, short enough. */
export function collectionNameOf(stackName: string): string {
  const base = stackName
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^[^a-z]+/, '');
  return `${base.slice(0, 21) || 'conductor'}-search`;
}

export class SearchCollection extends Construct {
  readonly collection: CfnCollection;
  private readonly readers: IRole[] = [];
  private readonly writers: IRole[] = [];

  constructor(
    scope: Construct,
    id: string,
    private readonly props: SearchCollectionProps,
  ) {
    super(scope, id);
    const { name } = props;
    const resource = [`collection/${name}`];
    const encryption = new CfnSecurityPolicy(this, 'Encryption', {
      name,
      type: 'encryption',
      policy: JSON.stringify({
        Rules: [{ ResourceType: 'collection', Resource: resource }],
        AWSOwnedKey: true,
      }),
    });
    const network = new CfnSecurityPolicy(this, 'Network', {
      name,
      type: 'network',
      policy: JSON.stringify([
        { Rules: [{ ResourceType: 'collection', Resource: resource }], AllowFromPublic: true },
      ]),
    });
    this.collection = new CfnCollection(this, 'Collection', {
      name,
      type: 'SEARCH',
      description: 'Conductor runs and tasks, indexed from the executions table stream',
    });
    // A collection cannot be created before an encryption policy covers its name.
    this.collection.addResourceDependency(encryption);
    this.collection.addResourceDependency(network);
    new CfnAccessPolicy(this, 'Access', {
      name,
      type: 'data',
      description: 'Search routes read the run and task indexes; the indexer writes them',
      policy: Lazy.string({ produce: () => this.accessPolicy() }),
    });
  }

  /** The collection's HTTPS endpoint. */
  get endpoint(): string {
    return this.collection.attrCollectionEndpoint;
  }

  /** Lets the grantee's role read (search) or also write (index) the service's indexes, nothing else. */
  grant(grantee: IGrantable & { role?: IRole }, access: TableAccess): void {
    const role = grantee.role;
    if (!role) throw new Error('Only a function with a role can be granted the search collection');
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['aoss:APIAccessAll'], resources: [this.collection.attrArn] }),
    );
    (access === 'readWrite' ? this.writers : this.readers).push(role);
  }

  private accessPolicy(): string {
    const indexes = [`index/${this.props.name}/${this.props.indexPrefix}-*`];
    const rule = (roles: IRole[], permissions: string[], description: string) =>
      roles.length === 0
        ? []
        : [
            {
              Description: description,
              Rules: [{ ResourceType: 'index', Resource: indexes, Permission: permissions }],
              Principal: roles.map((role) => role.roleArn),
            },
          ];
    return Stack.of(this).toJsonString([
      ...rule(this.readers, READ, 'search routes'),
      ...rule(this.writers, WRITE, 'search indexer'),
    ]);
  }
}
