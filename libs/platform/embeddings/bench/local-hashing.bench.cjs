// Micro benchmark of LocalHashingEmbedder on one core: 1000 paragraphs of 100 words (English and
// French vocabulary, deterministic pseudo-random text), embedded in one call, several rounds.
//
//   node libs/platform/embeddings/bench/local-hashing.bench.cjs [rounds=10] [dimensions=512]
//
// Prints the median and best wall time per 1000 paragraphs, and paragraphs per second. Timing goals
// live here, not in tests. The TypeScript source is compiled on load by SWC with the workspace's
// .swcrc, so no build step is needed.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { transformSync } = require('@swc/core');

const root = join(__dirname, '..', '..', '..', '..');
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;
swcrc.jsc.baseUrl = root;
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...swcrc, filename, swcrc: false, configFile: false });
  module._compile(code, filename);
};

const { LocalHashingEmbedder } = require('../src/local-hashing.embedder.ts');

const VOCABULARY = `refund refunds processed processing within days customer customers invoice invoices payment
payments policy policies employee employees manager approval request requests vacation leave contract
contracts supplier suppliers delivery deliveries warranty return returns product products price prices
discount discounts account accounts password security access badge office building parking cafeteria
training session sessions deadline deadlines report reports expense expenses travel booking hotel
the a of to and in is are for with on by at from that this be will must should can may not
remboursement remboursements traité traités délai délais client clients facture factures paiement
politique salarié salariés responsable validation demande demandes congé congés contrat fournisseur
livraison garantie retour produit prix remise compte mot passe sécurité accès bâtiment réunion
le la les de des du et en est sont pour avec sur par dans une un au aux ne pas plus 30 60 90 12 2024`
  .split(/\s+/)
  .filter(Boolean);

function paragraphs(count, words) {
  let seed = 42;
  const next = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const out = [];
  for (let p = 0; p < count; p++) {
    const ws = [];
    for (let w = 0; w < words; w++) ws.push(VOCABULARY[Math.floor(next() * VOCABULARY.length)]);
    out.push(`${ws.join(' ')}.`);
  }
  return out;
}

async function main() {
  const rounds = Number(process.argv[2] ?? 10);
  const dimensions = Number(process.argv[3] ?? 512);
  const embedder = new LocalHashingEmbedder(dimensions);
  const texts = paragraphs(1000, 100);
  await embedder.embed(texts.slice(0, 200)); // warm-up: JIT, inline caches
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    const vectors = await embedder.embed(texts);
    times.push(performance.now() - start);
    if (vectors.length !== texts.length) throw new Error('wrong vector count');
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    JSON.stringify({
      model: embedder.model,
      paragraphs: texts.length,
      wordsPerParagraph: 100,
      rounds,
      medianMs: Number(median.toFixed(1)),
      bestMs: Number(times[0].toFixed(1)),
      paragraphsPerSecond: Math.round((texts.length * 1000) / median),
      node: process.version,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
