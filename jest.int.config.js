module.exports = {
  ...require('./jest.preset.js'),
  rootDir: __dirname,
  displayName: 'integration',
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
  testTimeout: 60000,
};
