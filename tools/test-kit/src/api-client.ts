import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
/** A minimal JSON client for tests: POST a body with a bearer credential, get status, headers and JSON back. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

// Tests read arbitrary JSON shapes; the assertions check them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function post(url: string, body: unknown, credential?: string, headers: Record<string, string> = {}): Promise<ApiResponse<Json>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(credential ? { authorization: `Bearer ${credential}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Json = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // leave as text
  }
  if (res.status === 200) await assertDeclaredShape(url, parsed);
  return { status: res.status, headers: res.headers, body: parsed };
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const documents = new Map<string, Promise<OpenApiDocument | null>>();
const validators = new Map<string, ValidateFunction | null>();

interface OpenApiDocument {
  paths?: Record<string, { post?: { responses?: Record<string, { content?: Record<string, { schema?: object }> }> } }>;
}

/**
 * Every successful call an e2e test makes to a catalogued operation is checked against the response
 * shape the app publishes in its `/openapi.json` (issue 9: response shapes in the catalogue), so a
 * declared shape cannot drift from what the controllers send. Routes outside the catalogue are skipped.
 */
async function assertDeclaredShape(url: string, body: Json): Promise<void> {
  const { origin, pathname } = new URL(url);
  const key = `${origin}${pathname}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    let document = documents.get(origin);
    if (!document) {
      document = fetch(`${origin}/openapi.json`)
        .then(async (r) => (r.ok ? ((await r.json()) as OpenApiDocument) : null))
        .catch(() => null);
      documents.set(origin, document);
    }
    const schema = (await document)?.paths?.[pathname]?.post?.responses?.['200']?.content?.['application/json']?.schema;
    validate = schema ? ajv.compile(schema) : null;
    validators.set(key, validate);
  }
  if (validate && !validate(body)) {
    throw new Error(`POST ${pathname} answered a body that does not match its declared response shape (/openapi.json): ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}
