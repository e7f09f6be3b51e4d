import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import webLint from './apps/web/lint/import-flow.cjs';

/** Packages a core or shared library must not import (ARCHITECTURE.md: adapters hold the I/O). */
const CORE_BANNED = [
  'typeorm',
  'pg',
  'express',
  '@nestjs/platform-express',
  'bullmq',
  '@nestjs/bullmq',
  'ioredis',
  '@electric-sql/*',
  '@anthropic-ai/sdk',
  '@modelcontextprotocol/*',
  'passport',
  'passport-jwt',
  '@nestjs/passport',
  'jose',
];

/** The bounded contexts (libs/<context>/{core,infra}, tags `scope:<context>` and `infra:<context>`): a new context adds its name here. */
const CONTEXTS = ['identity', 'repository', 'workspace', 'conflicts', 'mandatory-questions', 'full-audit', 'duplicates', 'missing-subjects', 'stats'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.nx/**', '**/.data/**', 'coverage/**', 'tmp/**', 'apps/web/src/lib/audit-api.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:composition', 'type:infra', 'type:platform', 'type:core', 'type:shared', 'type:testing'] },
            // The web app's browser tests start the service through the test kit; its sources import no library at all (below).
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:core', 'type:testing'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:composition', 'type:infra', 'type:platform', 'type:core', 'type:shared', 'type:app', 'type:testing'] },
            { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:infra', 'type:platform', 'type:core', 'type:shared', 'type:testing'] },
            { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:infra', 'type:core', 'type:platform', 'type:shared', 'type:testing'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:shared', 'type:testing'] },
            { sourceTag: 'type:core', onlyDependOnLibsWithTags: ['type:core', 'type:shared', 'type:testing'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:infra', 'type:platform', 'type:core', 'type:shared', 'type:testing'] },
            { sourceTag: 'type:shared', onlyDependOnLibsWithTags: ['type:shared', 'type:testing'] },
            { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: ['scope:identity', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:repository', onlyDependOnLibsWithTags: ['scope:repository', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:workspace', onlyDependOnLibsWithTags: ['scope:workspace', 'scope:identity', 'scope:repository', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:conflicts', onlyDependOnLibsWithTags: ['scope:conflicts', 'scope:workspace', 'scope:repository', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:mandatory-questions', onlyDependOnLibsWithTags: ['scope:mandatory-questions', 'scope:conflicts', 'scope:workspace', 'scope:repository', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:full-audit', onlyDependOnLibsWithTags: ['scope:full-audit', 'scope:conflicts', 'scope:workspace', 'scope:repository', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:duplicates', onlyDependOnLibsWithTags: ['scope:duplicates', 'scope:workspace', 'scope:repository', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:missing-subjects', onlyDependOnLibsWithTags: ['scope:missing-subjects', 'scope:mandatory-questions', 'scope:workspace', 'scope:repository', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:stats', onlyDependOnLibsWithTags: ['scope:stats', 'scope:workspace', 'scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:platform', 'scope:shared', 'scope:testing'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared', 'scope:testing'] },
            // Cores and shared libraries hold rules and ports: no persistence, HTTP, queue or SDK package.
            { sourceTag: 'type:core', bannedExternalImports: CORE_BANNED },
            { sourceTag: 'type:shared', bannedExternalImports: CORE_BANNED },
            // A context reaches another only through its core's public use cases, never its adapters.
            ...CONTEXTS.map((context) => ({ sourceTag: `scope:${context}`, notDependOnLibsWithTags: CONTEXTS.filter((other) => other !== context).map((other) => `infra:${other}`) })),
          ],
        },
      ],
    },
  },
  // The expert web app (apps/web, STYLE.md "The web app"): React's hook rules, the one-way flow
  // app -> features -> shared, and nothing of the service's libraries (the API is reached over HTTP only).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, web: webLint.webPlugin },
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      'web/import-flow': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['@svc/*'], message: 'The web app reaches the service over HTTP only (lib/api-client.ts).' }] }],
    },
  },
  {
    files: ['tools/**/*.ts', '**/*.spec.ts', '**/*.int-spec.ts', '**/test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
