module.exports = {
  ...require('./jest.preset.js'),
  rootDir: __dirname,
  displayName: 'unit',
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
};
