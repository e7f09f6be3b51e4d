// Lets a child process require the workspace's TypeScript as-is: each .ts file is compiled when
// loaded, by SWC with the options Jest uses (decorator metadata, @svc/* aliases rewritten to
// relative paths). The kill test's children start in a second without a build step.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

const root = join(__dirname, '..', '..', '..', '..');
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;
swcrc.jsc.baseUrl = root;
swcrc.sourceMaps = 'inline';

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...swcrc, filename, swcrc: false, configFile: false });
  module._compile(code, filename);
};
