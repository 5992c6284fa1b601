/**
 * cdk-nag's AwsSolutions checks on the synthesized ConductorStack (bundling skipped), the checks
 * infra/app.ts runs on every `cdk synth`: no error and no warning may remain that the stack neither
 * fixes nor acknowledges with its reason (infra/nag-suppressions.ts). Three shapes between them
 * create every kind of resource the stack can: the default stack; every gate on with OpenSearch,
 * a run retention, event sources and sinks, an alarm address, a web ACL and CORS origins; the open
 * API with provisioned tables and no reserved concurrency.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type PolicyViolation, Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, describe, expect, it } from 'vitest';
import { ConductorStack, type ConductorStackProps, type Gates } from '../../infra/stack.ts';

/** The defaults of lib/config/properties.ts. */
const DEFAULT_GATES: Gates = { scheduler: true, fileStorage: false, messageQueue: false, agents: false };

const SHAPES: Record<string, Partial<ConductorStackProps>> = {
  'the default stack': {},
  'every gate on, OpenSearch, a run retention, event sources and sinks, an alarm address, a web ACL, CORS origins':
    {
      gates: { scheduler: true, fileStorage: true, messageQueue: true, agents: true },
      searchBackend: 'opensearch',
      properties: { 'service.workflow.retention': '30d' },
      outsideSources: {
        events: [
          { type: 'sqs', queue: 'orders' },
          { type: 'eventbridge', bus: 'commerce', detailType: 'OrderPlaced' },
        ],
      },
      eventSinks: [
        { type: 'sqs', queue: 'shipments' },
        { type: 'eventbridge', bus: 'audit' },
      ],
      operations: { alarmEmail: 'ops@example.com' },
      waf: {},
      corsOrigins: ['https://app.example.com'],
    },
  'the open API (auth=none), provisioned tables, no reserved concurrency': {
    auth: 'none',
    operations: {
      tableCapacity: { mode: 'provisioned', minUnits: 5, maxUnits: 100 },
      reserveConcurrency: false,
    },
  },
};

const outdirs: string[] = [];

afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

function newApp(): App {
  const outdir = mkdtempSync(join(tmpdir(), 'conductor-nag-test-'));
  outdirs.push(outdir);
  return new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
}

/** The AwsSolutions findings left in a synthesized stack, errors and warnings apart. */
function findings(app: App, stack: Stack): { errors: PolicyViolation[]; warnings: PolicyViolation[] } {
  app.synth();
  const { violations } = new AwsSolutionsChecks().validateScope(stack);
  const ours = violations.filter((v) => v.ruleName.startsWith('AwsSolutions-'));
  return {
    errors: ours.filter((v) => v.severity === 'error'),
    warnings: ours.filter((v) => v.severity !== 'error'),
  };
}

/** One finding a line, with the construct paths it was found on. */
function listed(violations: PolicyViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.ruleName}: ${v.description}\n${v.violatingResources.map((r) => `    ${r.constructPath ?? r.resourceLogicalId}`).join('\n')}`,
    )
    .join('\n');
}

describe('cdk-nag AwsSolutions checks', () => {
  for (const [shape, props] of Object.entries(SHAPES)) {
    it(`leave no unacknowledged error or warning on ${shape}`, () => {
      const app = newApp();
      const stack = new ConductorStack(app, 'Test', { gates: DEFAULT_GATES, ...props });
      const { errors, warnings } = findings(app, stack);
      expect(errors, `AwsSolutions errors:\n${listed(errors)}`).toEqual([]);
      expect(warnings, `AwsSolutions warnings:\n${listed(warnings)}`).toEqual([]);
      // A finding fixed is not acknowledged as well: with a web ACL, nothing about WAF is.
      const acknowledged = acknowledgements(stack).map(([id]) => id);
      expect(acknowledged.some((id) => id.endsWith('AwsSolutions-CFR2'))).toBe(props.waf === undefined);
      // Every acknowledgement says why: a reason of a sentence at least, never a placeholder.
      const reasons = acknowledgements(stack).filter(([id]) => id.includes('AwsSolutions-'));
      expect(reasons.length).toBeGreaterThan(10);
      for (const [id, reason] of reasons) {
        expect(reason.length, `the reason acknowledging ${id}`).toBeGreaterThan(60);
      }
    }, 60_000);
  }

  it('find what is wrong in a stack that does not acknowledge it (the checks run)', () => {
    const app = newApp();
    const stack = new Stack(app, 'Plain');
    new Bucket(stack, 'Bucket');
    const { errors } = findings(app, stack);
    expect(errors.map((v) => v.ruleName)).toEqual(
      expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10']),
    );
  });

  it('stop a synth that leaves a finding, as infra/app.ts registers them', () => {
    const app = newApp();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    new Bucket(new Stack(app, 'Plain'), 'Bucket');
    expect(() => app.synth()).toThrow(/AwsSolutions-S10/);
  });
});

/** [rule id, reason] of every acknowledgement recorded in the tree under `scope`. */
function acknowledgements(scope: IConstruct): [string, string][] {
  return scope.node
    .findAll()
    .flatMap((construct) => construct.node.metadata)
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
}
