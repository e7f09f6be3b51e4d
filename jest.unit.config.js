// Two projects: the service's unit tests (Node) and the web app's (jsdom, apps/web/jest.config.js).
module.exports = {
  projects: [
    {
      ...require('./jest.preset.js'),
      rootDir: __dirname,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/web/src/'],
    },
    require('./apps/web/jest.config.js'),
  ],
};
