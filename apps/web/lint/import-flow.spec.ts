import { join } from 'node:path';
import { RuleTester } from 'eslint';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createImportFlowRule } = require('./import-flow.cjs') as { createImportFlowRule: (src: string) => Parameters<RuleTester['run']>[1] };

/** The web app's import flow (lint/import-flow.cjs), on file names under a made-up src/. */
describe('web import flow', () => {
  const src = join('/', 'repo', 'apps', 'web', 'src');
  const at = (path: string) => join(src, ...path.split('/'));
  const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

  // RuleTester declares one test per case itself.
  tester.run('import-flow', createImportFlowRule(src), {
    valid: [
      { filename: at('features/conflicts/components/view.tsx'), code: "import { x } from '../api/conflicts';" },
      { filename: at('features/conflicts/components/view.tsx'), code: "import { x } from '@/features/conflicts/api/conflicts';" },
      { filename: at('features/conflicts/components/view.tsx'), code: "import { x } from '@/components/error-alert';" },
      { filename: at('app/routes/dashboard.tsx'), code: "import { x } from '@/features/dashboard/api/get-dashboard'; import { y } from '../router';" },
      { filename: at('lib/api-client.ts'), code: "import createClient from 'openapi-fetch'; import { x } from './session';" },
    ],
    invalid: [
      { filename: at('features/conflicts/components/view.tsx'), code: "import { x } from '@/features/questions/api/questions';", errors: [{ messageId: 'crossFeature' }] },
      { filename: at('features/conflicts/components/view.tsx'), code: "import { x } from '../../questions/api/questions';", errors: [{ messageId: 'crossFeature' }] },
      { filename: at('features/conflicts/components/view.tsx'), code: "export { x } from '@/features/questions/question-states';", errors: [{ messageId: 'crossFeature' }] },
      { filename: at('features/conflicts/components/view.tsx'), code: "import { x } from '@/app/router';", errors: [{ messageId: 'intoApp' }] },
      { filename: at('components/error-alert.tsx'), code: "import { x } from '@/features/conflicts/conflict-states';", errors: [{ messageId: 'sharedIntoFeature' }] },
      { filename: at('lib/services.tsx'), code: "const m = import('../app/app');", errors: [{ messageId: 'intoApp' }] },
    ],
  });
});
