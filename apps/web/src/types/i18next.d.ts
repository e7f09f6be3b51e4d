import 'i18next';
import type en from '@/locales/en.json';

// t('…') keys are checked against the English catalogue (the French one has the same keys: catalogues.spec.ts).
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
