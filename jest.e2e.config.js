module.exports = {
  ...require('./jest.preset.js'),
  rootDir: __dirname,
  displayName: 'e2e',
  testMatch: ['<rootDir>/apps/*/test/**/*.e2e-spec.ts', '<rootDir>/tools/*/src/**/*.e2e-spec.ts'],
  testTimeout: 120000,
};
