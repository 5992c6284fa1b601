// Every screen at 1280 and 800 px wide, with realistic data seeded through the API (long names,
// long descriptions, many rows, a run with a fork, a switch, a loop and a sub-workflow): the page
// never scrolls sideways (a wide table scrolls inside its own box), no cell clips its text, and
// each screen has a tab title of its own. Each screen at each width saves a screenshot.
import { describe, expect, it } from 'vitest';
import { fork, inline, join, loop, ref, script, uniqueName, worker } from '../../helpers/fixtures.ts';
import { useBrowser } from '../browser.ts';

/** Runs and pages settle within this on a loaded two-core machine. */
const SLOW = { timeout: 20_000 };

interface Seeded {
  workflow: string;
  taskDef: string;
  schema: string;
  schedule: string;
  handler: string;
  parentId: string;
  childId: string;
}

/** What a page shows that breaks its layout: sideways scroll of the page, and clipped text. */
const layoutFaults = (page: import('playwright-core').Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const faults: string[] = [];
    if (root.scrollWidth > root.clientWidth) {
      faults.push(`the page scrolls sideways by ${root.scrollWidth - root.clientWidth} px`);
      // Name the outermost elements that stick out, to say what to fix.
      const out = (el: Element) => el.getBoundingClientRect().right > root.clientWidth + 1;
      const culprits = [...document.querySelectorAll('body *')].filter(
        (el) => out(el) && !(el.parentElement && out(el.parentElement)),
      );
      for (const el of culprits.slice(0, 3)) {
        faults.push(
          `sticks out: ${el.tagName.toLowerCase()}.${el.className} "${el.textContent?.slice(0, 40)}"`,
        );
      }
    }
    // Text cut off by its own box: a cell or fact narrower than its text, with the rest hidden.
    for (const el of document.querySelectorAll('td, th, dd, .timeline-name, h1, h3')) {
      const style = getComputedStyle(el);
      const hides = style.overflowX === 'hidden' || style.overflowX === 'clip';
      if (hides && el.scrollWidth > el.clientWidth + 1 && !el.getAttribute('title')) {
        faults.push(`clipped: ${el.tagName.toLowerCase()} "${el.textContent?.slice(0, 60)}"`);
      }
    }
    return faults;
  });

describe('every screen fits the window', () => {
  const ui = useBrowser();
  let seeded: Seeded | undefined;

  const start = async (name: string, input: unknown = {}) =>
    String(await ui.api('POST', `/api/workflow/${name}`, input)).trim();

  /** Long names, long descriptions and many rows on every screen. */
  async function seed(): Promise<Seeded> {
    const long = uniqueName('customer_onboarding_with_identity_verification_and_credit_check');
    const taskDef = `${long}_verify_identity_document_scan`;
    await ui.api(
      'POST',
      '/api/metadata/taskdefs',
      Array.from({ length: 40 }, (_, i) => ({
        name: i === 0 ? taskDef : `${long}_task_${i}`,
        description:
          'Checks the scanned identity document against the national registry and the sanctions lists',
        ownerEmail: 'onboarding-platform-team@example.com',
        retryCount: 0,
        timeoutSeconds: 3600,
        responseTimeoutSeconds: 600,
      })),
    );
    const schema = `${long}_application_form_schema`;
    await ui.api('POST', '/api/schema', {
      name: schema,
      version: 1,
      type: 'JSON',
      data: { type: 'object', properties: { applicantFullLegalName: { type: 'string' } } },
    });
    const child = `${long}_child_process`;
    await ui.api('POST', '/api/metadata/workflow', {
      name: child,
      version: 1,
      description: 'The credit-bureau lookup, run as a sub-workflow',
      tasks: [script('credit_bureau_lookup_with_a_long_reference_name', '42')],
    });
    const workflow = `${long}_main`;
    const waiting = `${long}_manual_review_queue_worker`;
    await ui.api('POST', '/api/metadata/workflow', {
      name: workflow,
      version: 1,
      description:
        'Onboards a customer: verifies the identity document, checks credit in parallel, routes by country and loops over the document pages',
      inputParameters: ['customerIdentifierFromTheSignupForm', 'countryOfResidence'],
      tasks: [
        fork('parallel_identity_and_credit_checks', [
          [script('identity_document_ocr_extraction', '"ok"')],
          [
            {
              name: child,
              taskReferenceName: 'credit_check_sub_workflow',
              type: 'SUB_WORKFLOW',
              subWorkflowParam: { name: child, version: 1 },
            },
          ],
        ]),
        join('join_identity_and_credit', ['identity_document_ocr_extraction', 'credit_check_sub_workflow']),
        {
          name: 'route_by_country_of_residence',
          taskReferenceName: 'route_by_country_of_residence',
          type: 'SWITCH',
          evaluatorType: 'value-param',
          expression: 'country',
          inputParameters: { country: ref('workflow.input.countryOfResidence') },
          decisionCases: {
            DE: [script('germany_specific_schufa_check', '"de"')],
            FR: [script('france_specific_banque_de_france_check', '"fr"')],
          },
          defaultCase: [script('generic_international_check', '"any"')],
        },
        loop([script('scan_page', '$.n', { n: ref('loop.output.iteration') })], '$.loop.iteration < 3'),
        inline('summarise_the_onboarding_decision_for_the_case_worker', {
          expression: '"a long text output"',
        }),
        worker(waiting, { taskReferenceName: 'manual_review_by_the_compliance_team' }),
      ],
    });
    const parentId = await start(workflow, {
      customerIdentifierFromTheSignupForm: 'cust-0000000000000000000000000000000000000001',
      countryOfResidence: 'DE',
    });
    let childId = '';
    await expect
      .poll(async () => {
        const run = (await ui.api('GET', `/api/workflow/${parentId}?includeTasks=true`)) as {
          tasks: { referenceTaskName: string; status: string; subWorkflowId?: string }[];
        };
        childId =
          run.tasks.find((t) => t.referenceTaskName === 'credit_check_sub_workflow')?.subWorkflowId ?? '';
        return run.tasks.some((t) => t.referenceTaskName === 'manual_review_by_the_compliance_team');
      }, SLOW)
      .toBe(true);
    // Many rows in the executions search, with long correlation ids.
    for (let i = 0; i < 25; i += 1) {
      await ui.api('POST', '/api/workflow', {
        name: child,
        correlationId: `correlation-id-from-the-signup-service-${String(i).padStart(4, '0')}-abcdef0123456789`,
      });
    }
    // A schedule that fires (for its runs page), then pauses.
    const schedule = `${long}_nightly_reconciliation_schedule`;
    await ui.api('POST', '/api/scheduler/schedules', {
      name: schedule,
      cronExpression: '* * * * * *',
      zoneId: 'America/Argentina/ComodRivadavia',
      description: 'Reconciles the onboarding ledger with the core banking system every night',
      startWorkflowRequest: { name: child, correlationId: 'nightly-reconciliation-correlation-id-0001' },
    });
    await expect
      .poll(async () => {
        const found = (await ui.api(
          'GET',
          `/api/scheduler/search/executions?query=${encodeURIComponent(`scheduleName = "${schedule}"`)}`,
        )) as { totalHits: number };
        return found.totalHits;
      }, SLOW)
      .toBeGreaterThanOrEqual(1);
    await ui.api('PUT', `/api/scheduler/schedules/${schedule}/pause`);
    // An event handler whose event was handled (for the event monitor).
    const handler = `${long}_on_document_uploaded`;
    const event = `webhook:${long}_document_uploaded_to_the_customer_portal`;
    await ui.api('POST', '/api/event', {
      name: handler,
      event,
      active: true,
      actions: [
        {
          action: 'start_workflow',
          start_workflow: { name: child, input: { documentIdentifier: 'doc-0000000000000000000000000001' } },
        },
      ],
    });
    await ui.api('POST', '/api/event/handleIncomingEvent', {
      event,
      documentIdentifier: 'doc-0000000000000000000000000000000000000000000000000000000000001',
    });
    await expect
      .poll(async () => ((await ui.api('GET', `/api/event/execution/${handler}`)) as unknown[]).length, SLOW)
      .toBe(1);
    // A worker that polled an empty queue (for the queue monitor's worker column).
    await ui.api(
      'GET',
      `/api/tasks/poll/${long}_idle_queue?workerid=worker-host-with-a-long-name-0001.internal`,
    );
    return { workflow, taskDef, schema, schedule, handler, parentId, childId };
  }

  const routes = (s: Seeded): [string, string][] => {
    const e = encodeURIComponent;
    return [
      ['workflow-defs', '/definitions/workflows'],
      ['workflow-def-new', '/definitions/workflows/new'],
      ['workflow-def-editor', `/definitions/workflows/edit/${e(s.workflow)}/1`],
      ['task-defs', '/definitions/tasks'],
      ['task-def-new', '/definitions/tasks/new'],
      ['task-def-editor', `/definitions/tasks/edit/${e(s.taskDef)}`],
      ['event-handlers', '/definitions/event-handlers'],
      ['event-handler-editor', `/definitions/event-handlers/edit/${e(s.handler)}`],
      ['schemas', '/schemas'],
      ['schema-new', '/schemas/new'],
      ['schema-editor', `/schemas/edit/${e(s.schema)}/1`],
      ['executions', '/executions'],
      ['run-workflow', '/executions/run'],
      ['execution', `/executions/${s.parentId}`],
      ['execution-child', `/executions/${s.childId}`],
      ['schedules', '/schedules'],
      ['schedule-new', '/schedules/new'],
      ['schedule-editor', `/schedules/edit/${e(s.schedule)}`],
      ['schedule-runs', '/schedules/executions'],
      ['event-monitor', '/event-monitor'],
      ['event-executions', `/event-monitor/${e(s.handler)}`],
      ['queue-monitor', '/queue-monitor'],
    ];
  };

  for (const width of [1280, 800]) {
    it(`shows every screen at ${width} px without sideways scroll or clipped text`, async () => {
      seeded ??= await seed();
      const { page } = ui;
      await page.setViewportSize({ width, height: 900 });
      const found: Record<string, string[]> = {};
      const titles = new Map<string, string>();
      for (const [name, path] of routes(seeded)) {
        await page.goto(`${ui.url}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        // The execution page with a task chosen: the panel beside (or under) the tables.
        if (name === 'execution') {
          await page
            .getByRole('table', { name: 'Tasks' })
            .getByRole('button', { name: 'manual_review_by_the_compliance_team' })
            .click();
          await page.getByRole('complementary').waitFor();
        }
        // A page sets its title in an effect, after it rendered: wait for it, not the index page's.
        await expect.poll(() => page.title()).toMatch(/^.+ – Conductor$/);
        titles.set(name, await page.title());
        const faults = await layoutFaults(page);
        if (faults.length > 0) found[name] = faults;
        await ui.shot(`layout-${width}-${name}`);
      }
      expect(found).toEqual({});
      // Each screen names itself in the browser tab.
      expect([...titles.values()].filter((t) => !/^.+ – Conductor$/.test(t))).toEqual([]);
      expect(new Set(titles.values()).size).toBe(titles.size);
    }, 180_000);
  }
});
