/**
 * Polls `probe` every `pollMs` (50 ms) until it returns something other than undefined, and returns that; throws
 * after `timeoutMs`, naming `what` was awaited.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20000, what = 'condition', pollMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
