// The web app's one-way flow (STYLE.md, after bulletproof-react): app -> features -> shared code
// (components, lib, locales, testing, types). A feature imports no other feature (routes compose them)
// and nothing of app; shared code imports no feature and nothing of app.
const { dirname, join, relative, resolve, sep } = require('node:path');

const SRC = join(__dirname, '..', 'src');

/** Which part of the app a file belongs to. */
function areaOf(file, src) {
  const [top, name] = relative(src, file).split(sep);
  if (top === 'features') return { kind: 'feature', name };
  // The entry point (main.tsx) starts the app: it belongs to it.
  if (top === 'app' || top === 'main.tsx') return { kind: 'app' };
  return { kind: 'shared', name: top };
}

/** The file an import names, when it is one of the app's own (`@/…` or relative), else null. */
function targetOf(file, source, src) {
  if (source.startsWith('@/')) return join(src, source.slice(2));
  if (source.startsWith('.')) return resolve(dirname(file), source);
  return null;
}

function createImportFlowRule(src = SRC) {
  return {
    meta: {
      type: 'problem',
      docs: { description: 'app -> features -> shared: no import across features, none back into app or from shared code into a feature' },
      messages: {
        crossFeature: "Feature '{{from}}' imports feature '{{to}}': compose features in a route (src/app/routes) instead.",
        intoApp: 'Only src/app imports from src/app.',
        sharedIntoFeature: "Shared code ('{{from}}') imports feature '{{to}}': move what both need into shared code.",
      },
      schema: [],
    },
    create(context) {
      const file = context.filename;
      if (!file.startsWith(src + sep)) return {};
      const from = areaOf(file, src);
      const check = (node) => {
        const source = node.source?.value;
        if (typeof source !== 'string') return;
        const target = targetOf(file, source, src);
        if (!target || !target.startsWith(src + sep)) return;
        const to = areaOf(target, src);
        if (to.kind === 'app' && from.kind !== 'app') context.report({ node, messageId: 'intoApp' });
        else if (to.kind === 'feature' && from.kind === 'feature' && to.name !== from.name) context.report({ node, messageId: 'crossFeature', data: { from: from.name, to: to.name } });
        else if (to.kind === 'feature' && from.kind === 'shared') context.report({ node, messageId: 'sharedIntoFeature', data: { from: from.name, to: to.name } });
      };
      return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
    },
  };
}

module.exports = { createImportFlowRule, webPlugin: { rules: { 'import-flow': createImportFlowRule() } } };
