// Template assertions for the optional web ACL (`-c waf=true`, infra/constructs/waf.ts): off by
// default; on, a CLOUDFRONT-scope web ACL with AWS's IP reputation list, known bad inputs and
// common rule set (its body-size rule only counting) and a per-IP rate limit, attached to the
// distribution; refused at synth for a stack bound to a region other than us-east-1, and refused at
// deploy (a CloudFormation rule) for a region-agnostic one deployed elsewhere; a web ACL made
// elsewhere is used by ARN. HTTP APIs take no web ACL: nothing is associated with the API.
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COUNTED_COMMON_RULES,
  DEFAULT_WAF_RATE_LIMIT,
  MANAGED_RULE_GROUPS,
} from '../../infra/constructs/waf.ts';
import { ConductorStack, type ConductorStackProps } from '../../infra/stack.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { fakeUiDist, unbundledApp } from './synth.ts';

const temp = useTempDirs();

const gates = { scheduler: true, fileStorage: false, messageQueue: false, agents: false };
let uiDir: string;

beforeAll(() => {
  uiDir = fakeUiDist(temp('conductor-ui-dist-'));
});

function stackOf(props: Partial<ConductorStackProps> = {}): ConductorStack {
  const app = unbundledApp(temp('conductor-cdk-waf-'));
  return new ConductorStack(app, 'WafTest', { gates, uiDir, ...props });
}

type Resource = { Properties: Record<string, unknown> };

type TemplateRule = { Assertions: { Assert: unknown; AssertDescription: string }[] };

/** The template's rules but CDK's own bootstrap version check. */
const regionRules = (template: Template): Record<string, TemplateRule> =>
  Object.fromEntries(
    Object.entries((template.toJSON().Rules ?? {}) as Record<string, TemplateRule>).filter(
      ([id]) => id !== 'CheckBootstrapVersion',
    ),
  );

const distributionConfig = (template: Template) => {
  const found = Object.values(template.findResources('AWS::CloudFront::Distribution')) as Resource[];
  expect(found).toHaveLength(1);
  return (found[0] as Resource).Properties.DistributionConfig as Record<string, unknown>;
};

describe('the web ACL (-c waf=true)', () => {
  let template: Template;

  beforeAll(() => {
    template = Template.fromStack(stackOf({ waf: {} }));
  }, 180_000);

  it('is not created by default, and nothing is in front of the distribution then', () => {
    const plain = Template.fromStack(stackOf());
    plain.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(distributionConfig(plain).WebACLId).toBeUndefined();
  }, 180_000);

  it('puts a CloudFront-scope web ACL in front of the distribution', () => {
    const acls = template.findResources('AWS::WAFv2::WebACL');
    const [aclId, ...others] = Object.keys(acls);
    expect(others).toEqual([]);
    expect(acls[aclId as string]?.Properties).toMatchObject({
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
    });
    expect(distributionConfig(template).WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    // HTTP APIs cannot take a web ACL: nothing is associated with the API (infra/constructs/waf.ts).
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
  });

  it("runs AWS's IP reputation list, known bad inputs and common rule set, then a per-IP rate limit", () => {
    const [acl] = Object.values(template.findResources('AWS::WAFv2::WebACL')) as Resource[];
    const rules = (acl as Resource).Properties.Rules as {
      Name: string;
      Priority: number;
      Statement: Record<string, Record<string, unknown>>;
      Action?: unknown;
      OverrideAction?: unknown;
      VisibilityConfig: Record<string, unknown>;
    }[];
    expect(rules.map((r) => r.Name)).toEqual([...MANAGED_RULE_GROUPS, 'RateLimitPerIp']);
    expect(rules.map((r) => r.Priority)).toEqual([0, 1, 2, 3]);
    for (const rule of rules.slice(0, 3)) {
      expect(rule.OverrideAction).toEqual({ None: {} });
      expect(rule.Statement.ManagedRuleGroupStatement).toMatchObject({ VendorName: 'AWS', Name: rule.Name });
      expect(rule.VisibilityConfig).toMatchObject({
        CloudWatchMetricsEnabled: true,
        SampledRequestsEnabled: true,
      });
    }
    // Workflow definitions and task outputs are routinely over the common rule set's 8 KB body limit.
    expect(rules[2]?.Statement.ManagedRuleGroupStatement?.RuleActionOverrides).toEqual(
      COUNTED_COMMON_RULES.map((name) => ({ Name: name, ActionToUse: { Count: {} } })),
    );
    expect(rules[3]).toMatchObject({
      Action: { Block: {} },
      Statement: { RateBasedStatement: { Limit: DEFAULT_WAF_RATE_LIMIT, AggregateKeyType: 'IP' } },
    });
    const limited = Template.fromStack(stackOf({ waf: { rateLimit: 500 } }));
    const [other] = Object.values(limited.findResources('AWS::WAFv2::WebACL')) as Resource[];
    expect(JSON.stringify((other as Resource).Properties.Rules)).toContain('"Limit":500');
    expect(() => stackOf({ waf: { rateLimit: 5 } })).toThrow(/wafRateLimit must be a whole number from 10/);
  }, 180_000);

  it('refuses at deploy time, with a rule naming the fix, a region-agnostic stack deployed outside us-east-1', () => {
    const [rule, ...others] = Object.values(regionRules(template));
    expect(others).toEqual([]);
    expect(rule?.Assertions[0]?.Assert).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] });
    expect(rule?.Assertions[0]?.AssertDescription).toMatch(
      /us-east-1 only; deploy the stack in us-east-1.*-c wafWebAclArn=/,
    );
  });

  it('refuses at synth a stack bound to another region, naming both fixes, and needs no rule in us-east-1', () => {
    const bound = (region: string) => {
      const app = unbundledApp(temp('conductor-cdk-waf-'));
      return new ConductorStack(app, 'WafTest', {
        gates,
        uiDir,
        waf: {},
        env: { account: '123456789012', region },
      });
    };
    expect(() => bound('eu-west-1')).toThrow(
      /AWS WAF creates the web ACL of a CloudFront distribution in us-east-1 only, and this stack deploys to eu-west-1: deploy the stack in us-east-1 .* or create a web ACL .* -c wafWebAclArn=/,
    );
    const inUsEast1 = Template.fromStack(bound('us-east-1'));
    inUsEast1.resourceCountIs('AWS::WAFv2::WebACL', 1);
    expect(regionRules(inUsEast1)).toEqual({});
  }, 180_000);

  it('uses a web ACL made elsewhere by its ARN, in any region, and creates none', () => {
    const arn =
      'arn:aws:wafv2:us-east-1:123456789012:global/webacl/conductor/0123abcd-0000-1111-2222-333344445555';
    const app = unbundledApp(temp('conductor-cdk-waf-'));
    const given = Template.fromStack(
      new ConductorStack(app, 'WafTest', {
        gates,
        uiDir,
        waf: { webAclArn: arn },
        env: { account: '123456789012', region: 'eu-west-1' },
      }),
    );
    given.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(distributionConfig(given).WebACLId).toBe(arn);
    expect(() =>
      stackOf({ waf: { webAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/x/y' } }),
    ).toThrow(/is not the ARN of a CloudFront web ACL/);
  }, 180_000);
});
