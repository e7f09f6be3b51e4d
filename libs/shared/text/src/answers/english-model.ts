import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

let nlp: ReturnType<typeof winkNLP> | undefined;

/** wink-nlp with its bundled English model (tokens, parts of speech), loaded once on first use (~100 ms). */
export function english(): ReturnType<typeof winkNLP> {
  nlp ??= winkNLP(model);
  return nlp;
}
