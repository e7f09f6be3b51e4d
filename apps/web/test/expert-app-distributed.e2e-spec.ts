import { generateApiKey } from '@svc/identity-core';
import { Json, launchChromium, post, RunningService, startService, waitFor } from '@svc/test-kit';
import type { Browser, Page } from 'playwright-core';
import { signIn } from './sign-in';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'admin@example.com';
const INSTANCE = 'Refunds';
const QUESTION = 'How long does the refund of an order take?';
const COUNTERS = ['unresolved_question_conflicts', 'unresolved_full_audit_conflicts', 'pending_mandatory_questions', 'pending_missing_subjects', 'pending_duplicate_clusters'];

/**
 * The expert web app in the distributed mode (platform-auth, audit, retrieval and workers as separate
 * processes on PostgreSQL and Redis): what differs by mode only, the sign-in through another process's
 * login page and cookie, the dashboard's counters as the API gives them, and a question conflict
 * opened with its answer groups. The whole walk runs in the embedded mode (expert-app.e2e-spec.ts).
 */
describe('expert web app, distributed mode (headless Chromium)', () => {
  let service: RunningService;
  let browser: Browser;
  let page: Page;
  let key: string;
  let app: string;
  let instanceId: string;
  const pageErrors: string[] = [];

  const api = async (path: string, body: object = {}) => {
    const res = await post(`${service.urls.audit}${path}`, body, key);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.response as Json;
  };

  beforeAll(async () => {
    key = generateApiKey();
    const [serviceStart, launched] = await Promise.allSettled([
      // The demo is created by the standalone process only: this instance and its question conflict are made below.
      startService('distributed', { BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, BOOTSTRAP_ADMIN_API_KEY: key, REPOSITORY_CLIENT: 'http' }),
      launchChromium({ args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'] }),
    ]);
    if (serviceStart.status === 'fulfilled') service = serviceStart.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    for (const outcome of [serviceStart, launched]) if (outcome.status === 'rejected') throw outcome.reason;
    app = `${service.urls.audit}/app/`;
    instanceId = (await api('/audit/instance/create', { name: INSTANCE })).instance_id;
    const instanceKey = (await api('/audit/instance/get-svc-instances', { instance_id: instanceId }))[0].api_key;
    await waitFor(async () => ((await api('/audit/instance/get-instance', { instance_id: instanceId })).step === 'RUNNING_PHASE' ? true : undefined), 30000, 'RUNNING_PHASE');
    await api('/audit/mandatory-question/create', { instance_id: instanceId, question: QUESTION });
    const ingest = (name: string, content_text: string) =>
      post(`${service.urls.retrieval}/api/documents/upsert`, { external_id: name, name, url: `https://intranet.example/${name}`, content_text }, undefined, { 'instance-id': instanceId, 'api-key': instanceKey });
    for (const [name, text] of [
      ['refund-policy.md', '# Refund policy\n\nRefunds of an order are processed within 30 days of the request.'],
      ['customer-faq.md', '# Customer FAQ\n\nThe refund of an order takes 14 days.'],
    ]) {
      const res = await ingest(name, text);
      if (res.status !== 200) throw new Error(`upsert ${name} answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    await waitFor(async () => ((await api('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId })).total >= 1 ? true : undefined), 120000, 'the question conflict', 500);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    context.setDefaultTimeout(10000);
    page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
    page.on('pageerror', (e) => pageErrors.push(e.message));
  }, 240000);

  afterAll(async () => {
    await browser?.close();
    await service?.destroy();
  });

  it('signs in through the auth process and shows the dashboard with the counters the API gives', async () => {
    // The app sends its language (English here: an en-GB browser) for the login page to speak it.
    await signIn(page, `${service.urls.auth}/auth/login?next=${encodeURIComponent(app)}&lang=en`, EMAIL, PASSWORD);
    const card = page.getByRole('region', { name: INSTANCE });
    const shown = async () => {
      await card.locator('[data-counter="unresolved_question_conflicts"] dd').waitFor();
      return Object.fromEntries(await Promise.all(COUNTERS.map(async (name) => [name, Number(await card.locator(`[data-counter="${name}"] dd`).textContent())])));
    };
    const given = async () => {
      const entry = (await api('/audit/dashboard/get-my-dashboard')).find((e: Json) => e.instance_id === instanceId);
      return Object.fromEntries(COUNTERS.map((name) => [name, entry[name]]));
    };
    // A background job (a scan, an analysis) may still move a counter between the API's answer and the page's: read
    // both again, a page load each time, until they agree.
    let last: { page: object; api: object } = { page: {}, api: {} };
    const agreed = await waitFor(
      async () => {
        const before = await given();
        await page.reload();
        last = { page: await shown(), api: before };
        return JSON.stringify(last.page) === JSON.stringify(last.api) ? true : undefined;
      },
      30000,
      'the dashboard counters equal to the API',
      1000,
    ).catch(() => false);
    expect({ agreed, ...last }).toEqual({ agreed: true, page: last.api, api: last.api });
  });

  it('opens a question conflict: its answer groups side by side with the answering spans highlighted', async () => {
    const conflict = (await api('/audit/conflict/list-conflicts-for-instance', { instance_id: instanceId })).items[0];
    await page.getByRole('link', { name: INSTANCE }).first().click();
    await page.getByRole('link', { name: 'Question conflicts' }).click();
    await page.getByRole('link', { name: conflict.question }).click();
    await page.locator('[data-answer-group]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/instances/${instanceId}/conflicts/${conflict.id}`);
    const groups = page.locator('[data-answer-group]');
    expect(await groups.count()).toBeGreaterThanOrEqual(2);
    for (const group of await groups.all()) expect(await group.locator('mark.answer-span').count()).toBeGreaterThanOrEqual(1);
    expect(pageErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
