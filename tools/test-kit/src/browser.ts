import { accessSync, constants } from 'node:fs';
import type { Browser, LaunchOptions } from 'playwright-core';

/** Where the system Chromium is expected (Debian's `chromium` package); `CHROMIUM_PATH` overrides it. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/**
 * Launches the system Chromium headless through playwright-core (which downloads no browser).
 * `--no-sandbox` because tests run as root in containers. Close it with `browser.close()`.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const executablePath = chromiumPath();
  try {
    accessSync(executablePath, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium not found at ${executablePath}. Install it with ` +
        '`DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium` (what .ci/run does), ' +
        'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    );
  }
  // Loaded on first use, so importing the test kit does not load playwright-core.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, ...options, args: ['--no-sandbox', ...(options.args ?? [])] });
}
