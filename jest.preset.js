// Shared Jest preset: SWC transforms TypeScript (with decorator metadata) and the ESM-only
// dependencies (jose), so every tier runs the same compiled shape as production.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const swcrc = JSON.parse(readFileSync(join(__dirname, '.swcrc'), 'utf8'));
delete swcrc.$schema;
swcrc.jsc.baseUrl = __dirname;

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(swcrc.jsc.paths)) {
  moduleNameMapper[`^${alias.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&')}$`] = join(__dirname, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  transformIgnorePatterns: ['/node_modules/(?!(jose)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  moduleNameMapper,
  setupFiles: ['reflect-metadata'],
};
