// Template assertions on the API's authentication (lib/security): on by default with the first key
// in Secrets Manager, readable by the route group functions only; `auth: 'none'` deploys the open
// API with a warning. Bundling is skipped, as in stack.test.ts.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { FIRST_KEY_ID } from '../../infra/constructs/api-keys.ts';
import { ConductorStack, type ConductorStackProps, enabledGroups, type Gates } from '../../infra/stack.ts';
import { CAPABILITIES } from '../../lib/capabilities.ts';
import { systemCapability } from '../../lib/system/capability.ts';

const GATES: Gates = { scheduler: true, fileStorage: false, messageQueue: false, agents: false };
const outdirs: string[] = [];

function synth(props: Partial<ConductorStackProps> = {}): { template: Template; stack: ConductorStack } {
  const outdir = mkdtempSync(join(tmpdir(), 'conductor-auth-test-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new ConductorStack(app, 'Test', { gates: GATES, ...props });
  return { template: Template.fromStack(stack), stack };
}

afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

type Resource = { Properties: Record<string, unknown> };

/** Environment variables of every function, by description. */
function environments(template: Template): Map<string, Record<string, unknown>> {
  const functions = template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
  return new Map(
    Object.values(functions).map((fn) => [
      String(fn.Properties.Description),
      (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {},
    ]),
  );
}

/** IAM statements mentioning Secrets Manager, with the role they are attached to. */
function secretStatements(template: Template): { roles: unknown; actions: unknown; resource: unknown }[] {
  const policies = template.findResources('AWS::IAM::Policy') as Record<string, Resource>;
  return Object.values(policies).flatMap((policy) => {
    const document = policy.Properties.PolicyDocument as {
      Statement: { Action: string | string[]; Resource: unknown }[];
    };
    return document.Statement.filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('secretsmanager:')),
    ).map((s) => ({ roles: policy.Properties.Roles, actions: s.Action, resource: s.Resource }));
  });
}

const routeGroups = enabledGroups(CAPABILITIES, GATES).map((c) => `Conductor route group '${c.name}'`);

describe('ConductorStack authentication by default', () => {
  const { template, stack } = synth();
  const secretId = Object.keys(template.findResources('AWS::SecretsManager::Secret'))[0] as string;

  it('creates one secret holding the first key, generated, and kept when the stack goes', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    template.hasResource('AWS::SecretsManager::Secret', {
      Properties: {
        GenerateSecretString: {
          SecretStringTemplate: JSON.stringify({ id: FIRST_KEY_ID }),
          GenerateStringKey: 'secret',
          ExcludePunctuation: true,
          PasswordLength: 48,
        },
      },
      DeletionPolicy: 'Retain',
    });
  });

  it('outputs the name of the secret', () => {
    template.hasOutput('ApiKeySecretName', { Value: Match.anyValue() });
  });

  it('turns security on in every route group function and names the secret', () => {
    const env = environments(template);
    for (const group of routeGroups) {
      expect(env.get(group), group).toMatchObject({
        SERVICE_SECURITY_ENABLED: 'true',
        SERVICE_SECURITY_KEYS_SECRET: { Ref: secretId },
      });
    }
  });

  it('lets the route group functions read that secret only, and no other function touch it', () => {
    const statements = secretStatements(template);
    expect(statements).toHaveLength(routeGroups.length);
    for (const statement of statements) {
      expect([statement.actions].flat().sort()).toEqual([
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
      ]);
      expect(statement.resource).toEqual({ Ref: secretId });
    }
    const background = [...environments(template)].filter(
      ([description]) => !routeGroups.includes(description),
    );
    expect(background.length).toBeGreaterThan(0);
    for (const [description, variables] of background) {
      expect(variables.SERVICE_SECURITY_ENABLED, description).toBeUndefined();
    }
  });

  it('tells every route group function the applications table, whose stored keys it checks tokens of', () => {
    const env = environments(template);
    for (const group of routeGroups) {
      expect(env.get(group), group).toHaveProperty('SERVICE_DYNAMODB_TABLES_APPLICATIONS');
    }
  });

  it('lets browsers on the origins it is given send X-Authorization', () => {
    synth({ corsOrigins: ['https://app.example.com'] }).template.hasResourceProperties(
      'AWS::ApiGatewayV2::Api',
      {
        CorsConfiguration: { AllowHeaders: Match.arrayWith(['x-authorization']) },
      },
    );
  });

  it('routes POST /api/token, /api-docs and Swagger UI to the system function', () => {
    for (const key of ['POST /api/token', 'GET /api-docs', 'GET /swagger-ui/{file}']) {
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
    }
  });

  it('warns of nothing', () => {
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('auth=none'));
  });
});

describe('ConductorStack with auth none', () => {
  const { template, stack } = synth({ auth: 'none' });

  it('deploys the open API: no secret, no output, no security property', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    expect(Object.keys(template.findOutputs('ApiKeySecretName'))).toEqual([]);
    for (const variables of environments(template).values()) {
      expect(variables.SERVICE_SECURITY_ENABLED).toBeUndefined();
    }
    expect(secretStatements(template)).toEqual([]);
  });

  it('tells no route group but the applications one the applications table: nobody checks tokens', () => {
    for (const [description, variables] of environments(template)) {
      const told = 'SERVICE_DYNAMODB_TABLES_APPLICATIONS' in variables;
      expect(told, description).toBe(description === "Conductor route group 'applications'");
    }
  });

  it('warns at synth that the API is open', () => {
    Annotations.fromStack(stack).hasWarning('/Test', Match.stringLikeRegexp('API is open to anyone'));
  });
});

describe('the system function bundle', () => {
  it('ships Swagger UI files that exist in the pinned package', () => {
    const assets = systemCapability.assets;
    expect(assets?.package).toBe('swagger-ui-dist');
    const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    for (const file of assets?.files ?? []) expect(existsSync(join(dist, file)), file).toBe(true);
    expect(assets?.files).toContain('swagger-ui-bundle.js');
  });
});
