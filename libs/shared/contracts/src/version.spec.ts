import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_VERSION } from './version';

it('reports the version of package.json', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));
  expect(SERVICE_VERSION).toBe(pkg.version);
});
