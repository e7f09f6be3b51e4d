import { spawn } from 'node:child_process';

/**
 * Validates an OpenAPI document with `@seriousme/openapi-schema-validator` (the official OpenAPI 3.x
 * JSON Schemas). The package is ESM-only and reads its schemas through `import.meta.url`, so it runs in
 * a child Node process rather than in Jest's CommonJS module system.
 */
export function validateOpenApi(document: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const result = await new Validator().validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`openapi validator exited with ${code}: ${err.slice(0, 500)}`));
      resolve(JSON.parse(out) as { valid: boolean; errors?: unknown });
    });
    child.stdin.end(JSON.stringify(document));
  });
}
