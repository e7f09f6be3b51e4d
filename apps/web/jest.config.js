// The web app's component and logic tests (Jest with jsdom and Testing Library), one project of
// jest.unit.config.js: `npm run test:unit` runs them with the service's unit tests.
const { join } = require('node:path');

const root = join(__dirname, '..', '..');

module.exports = {
  displayName: 'web',
  rootDir: root,
  testMatch: ['<rootDir>/apps/web/src/**/*.spec.{ts,tsx}'],
  testEnvironment: 'jsdom',
  transform: {
    '^.+\\.(t|j|mj)sx?$': [
      '@swc/jest',
      { swcrc: false, jsc: { target: 'es2022', parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } }, module: { type: 'commonjs' } },
    ],
  },
  // ESM-only packages the app imports.
  transformIgnorePatterns: ['/node_modules/(?!(openapi-fetch|diff)/)'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/apps/web/src/$1', '\\.css$': '<rootDir>/apps/web/src/testing/style-stub.js' },
  setupFilesAfterEnv: ['<rootDir>/apps/web/src/testing/setup.ts'],
};
