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
  return { status: res.status, headers: res.headers, body: parsed };
}
