/**
 * The API's application keys on AWS (lib/security): one Secrets Manager secret, created with a first
 * key `{"id": "key-1", "secret": <generated>}`. Every route group function is told its ARN and may
 * read it (and nothing else of Secrets Manager); the functions re-read it every few minutes, so a
 * rotation is an edit of the secret: make it a list with the new key, move the clients, remove the old.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/** The id of the key the stack creates: the SDKs' keyId. */
export const FIRST_KEY_ID = 'key-1';

export class ApiKeys extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description:
        'Conductor API application keys: {"id","secret"} or a list of them (keyId/keySecret of the SDKs)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ id: FIRST_KEY_ID }),
        generateStringKey: 'secret',
        excludePunctuation: true,
        passwordLength: 48,
      },
      // Clients hold these keys: a stack update that replaced the secret would lock them out.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** The service properties of a function that checks tokens: security on, keys in this secret. */
  properties(): Record<string, string> {
    return { 'service.security.enabled': 'true', 'service.security.keys-secret': this.secret.secretArn };
  }

  grantRead(grantee: IGrantable): void {
    this.secret.grantRead(grantee);
  }
}
