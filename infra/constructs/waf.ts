/**
 * The optional web application firewall (`-c waf=true`): an AWS WAF web ACL on the CloudFront
 * distribution, which serves the management UI and, on `/api/*` and the other API paths, the API.
 *
 * Rules, in order: AWS's IP reputation list (known malicious sources), known bad inputs (Log4j
 * lookups, Java deserialization and the like), the common rule set (OWASP-style probes), then a
 * rate-based rule blocking any client IP past `rateLimit` requests in five minutes. The common rule
 * set's 8 KB body limit (SizeRestrictions_BODY) only counts: workflow definitions, task outputs and
 * start inputs are routinely larger (the service bounds bodies itself: docs/security.md).
 *
 * Where it applies, honestly:
 * - CloudFront takes only a web ACL of scope CLOUDFRONT, which AWS WAF keeps in us-east-1. The
 *   stack creates it only when it deploys there: a stack bound to another region fails the synth,
 *   and a region-agnostic one (the default: `cdk deploy` picks the region) carries a
 *   CloudFormation rule that refuses the deploy elsewhere before anything is created. Elsewhere,
 *   create the web ACL in us-east-1 and give its ARN (`-c wafWebAclArn=...`): the distribution
 *   uses it and the stack creates none.
 * - API Gateway HTTP APIs cannot be associated with a web ACL (AWS WAF protects REST API stages,
 *   not HTTP APIs), so the API's own execute-api URL (stack output ApiUrl) is not behind the WAF:
 *   only requests through the distribution (stack output UiUrl, `/api/...`) are. Point the SDKs
 *   and workers at `<UiUrl>/api` to have them filtered; the direct URL stays open to whoever
 *   knows it, with the stage's throttling and the service's own limits (docs/security.md).
 */
import { Aws, CfnRule, Fn, Stack, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/** The region AWS WAF keeps web ACLs of CloudFront scope in. */
export const CLOUDFRONT_WAF_REGION = 'us-east-1';

/** Requests one client IP may make in five minutes before the rate-based rule blocks it. */
export const DEFAULT_WAF_RATE_LIMIT = 20_000;

/** The AWS managed rule groups the web ACL runs, in priority order. */
export const MANAGED_RULE_GROUPS = [
  'AWSManagedRulesAmazonIpReputationList',
  'AWSManagedRulesKnownBadInputsRuleSet',
  'AWSManagedRulesCommonRuleSet',
] as const;

/** Rules of the common rule set that only count: the API's bodies are larger than it allows. */
export const COUNTED_COMMON_RULES = ['SizeRestrictions_BODY'] as const;

/** `-c waf=...` as the stack takes it. */
export interface WafOptions {
  /** Requests per client IP in five minutes (WAF's rate-based rule: 10 to 2,000,000,000). */
  rateLimit?: number;
  /** A web ACL of CLOUDFRONT scope made elsewhere (us-east-1): used as it is, none created. */
  webAclArn?: string;
}

/** arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id> */
const CLOUDFRONT_ACL_ARN = /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/;

export class EdgeFirewall extends Construct {
  /** The web ACL's ARN: what CloudFront's `webAclId` takes. */
  readonly webAclArn: string;
  /** The web ACL the stack created; absent when it was given one. */
  readonly webAcl?: CfnWebACL;

  constructor(scope: Construct, id: string, options: WafOptions = {}) {
    super(scope, id);
    if (options.webAclArn !== undefined) {
      if (!CLOUDFRONT_ACL_ARN.test(options.webAclArn)) {
        throw new Error(
          `wafWebAclArn '${options.webAclArn}' is not the ARN of a CloudFront web ACL (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>)`,
        );
      }
      this.webAclArn = options.webAclArn;
      return;
    }
    requireCloudFrontRegion(this);
    const rateLimit = options.rateLimit ?? DEFAULT_WAF_RATE_LIMIT;
    if (!Number.isInteger(rateLimit) || rateLimit < 10 || rateLimit > 2_000_000_000) {
      throw new Error(`wafRateLimit must be a whole number from 10 to 2,000,000,000, got ${rateLimit}`);
    }
    const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const managed: CfnWebACL.RuleProperty[] = MANAGED_RULE_GROUPS.map((name, priority) => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ruleActionOverrides:
            name === 'AWSManagedRulesCommonRuleSet'
              ? COUNTED_COMMON_RULES.map((rule) => ({ name: rule, actionToUse: { count: {} } }))
              : undefined,
        },
      },
      visibilityConfig: visibility(name),
    }));
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Conductor: managed rule groups and a per-IP rate limit in front of the UI and API',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('ConductorWebAcl'),
      rules: [
        ...managed,
        {
          name: 'RateLimitPerIp',
          priority: managed.length,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: rateLimit, aggregateKeyType: 'IP' } },
          visibilityConfig: visibility('ConductorRateLimitPerIp'),
        },
      ],
    });
    this.webAclArn = this.webAcl.attrArn;
  }
}

/**
 * A web ACL of CLOUDFRONT scope is created in us-east-1 only: a stack bound to another region
 * fails here, a region-agnostic one gets a CloudFormation rule that refuses the deploy there.
 */
function requireCloudFrontRegion(scope: Construct): void {
  const stack = Stack.of(scope);
  const fix = `deploy the stack in ${CLOUDFRONT_WAF_REGION} (AWS_REGION=${CLOUDFRONT_WAF_REGION} npx cdk deploy -c waf=true), or create a web ACL of CloudFront scope in ${CLOUDFRONT_WAF_REGION} and pass its ARN with -c wafWebAclArn=arn:aws:wafv2:${CLOUDFRONT_WAF_REGION}:<account>:global/webacl/<name>/<id>`;
  if (!Token.isUnresolved(stack.region)) {
    if (stack.region !== CLOUDFRONT_WAF_REGION) {
      throw new Error(
        `-c waf=true: AWS WAF creates the web ACL of a CloudFront distribution in ${CLOUDFRONT_WAF_REGION} only, and this stack deploys to ${stack.region}: ${fix}.`,
      );
    }
    return;
  }
  new CfnRule(scope, 'RegionRule', {
    assertions: [
      {
        assert: Fn.conditionEquals(Aws.REGION, CLOUDFRONT_WAF_REGION),
        assertDescription: `waf=true: AWS WAF creates the web ACL of a CloudFront distribution in ${CLOUDFRONT_WAF_REGION} only; ${fix}.`,
      },
    ],
  });
}
