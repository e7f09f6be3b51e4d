import { Json, post, RunningService, waitFor } from '@svc/test-kit';

/**
 * One audit instance of a running service, as the full-audit e2e tests drive it: audit operations as the
 * admin, documents through the instance's retrieval API, the full-audit panel.
 */
export class FullAuditInstance {
  private constructor(
    private readonly service: RunningService,
    private readonly adminKey: string,
    readonly instanceId: string,
    private readonly instanceKey: string,
  ) {}

  /** Creates the instance and waits for its first full scan (of the empty repository). */
  static async create(service: RunningService, adminKey: string, name: string): Promise<FullAuditInstance> {
    const audit = (path: string, body: unknown) => post(`${service.urls.audit}${path}`, body, adminKey);
    const instanceId = (await audit('/audit/instance/create', { name })).body.response.instance_id;
    const instanceKey = (await audit('/audit/instance/get-svc-instances', { instance_id: instanceId })).body.response[0].api_key;
    const instance = new FullAuditInstance(service, adminKey, instanceId, instanceKey);
    await waitFor(async () => ((await instance.panel()).show ? true : undefined), 60000, 'the first full scan');
    return instance;
  }

  audit(path: string, body: unknown) {
    return post(`${this.service.urls.audit}${path}`, body, this.adminKey);
  }

  retrieval(path: string, body: unknown) {
    return post(`${this.service.urls.retrieval}${path}`, body, undefined, { 'instance-id': this.instanceId, 'api-key': this.instanceKey });
  }

  /** Upserts a document (external id = name); its id. */
  async ingest(name: string, content_text: string): Promise<string> {
    const res = await this.retrieval('/api/documents/upsert', { external_id: name, name, url: null, content_text });
    expect(res.status).toBe(200);
    return res.body.response.id;
  }

  /** have-to-show: whether the panel shows, the running (else last) scan, the candidates awaiting the model. */
  async panel(): Promise<{ show: boolean; scan: Json; awaiting_model: number }> {
    return (await this.audit('/audit/full-audit/have-to-show', { instance_id: this.instanceId })).body.response;
  }
}

/** Thirteen notice periods in one document: with it, "period" is in most statements and says nothing about what they are about. */
export function officeNotices(): string {
  const things = ['lockers', 'parking badges', 'laptops', 'desk phones', 'meeting rooms', 'visitor passes', 'coffee machines', 'printers', 'bicycles', 'umbrellas', 'headsets', 'monitors', 'keyboards'];
  return `# Office notices\n\n${things.map((t, i) => `The notice period for ${t} is ${i + 2} days.`).join('\n\n')}`;
}
