import { CLAIMS_VERSION } from '@svc/text';
import { atVersions, sameContent } from './findings';
import { claimsVersionOf, NEURAL_VECTOR_BAND, vectorBandOf } from './scan-settings';

describe('vector-neighbour blocking settings', () => {
  it('auto blocks by vectors with a neural embedder only; off never; a band as written', () => {
    expect(vectorBandOf('auto', true)).toEqual(NEURAL_VECTOR_BAND);
    expect(vectorBandOf('auto', false)).toBeNull();
    expect(vectorBandOf('off', true)).toBeNull();
    expect(vectorBandOf('0.7-0.99', false)).toEqual({ min: 0.7, max: 0.99 });
    expect(vectorBandOf('-0.5-0.9', false)).toEqual({ min: -0.5, max: 0.9 });
  });

  it("stores the embedding model in the claims' version, so turning blocking on or changing the model reads every document again", () => {
    expect(claimsVersionOf('abc', null)).toBe(`claims-v${CLAIMS_VERSION}:abc`);
    expect(claimsVersionOf('abc', 'local-hash-512')).toBe(`claims-v${CLAIMS_VERSION}+local-hash-512:abc`);
    expect(claimsVersionOf('abc', 'bge-small')).not.toBe(claimsVersionOf('abc', 'local-hash-512'));
  });

  it("with model-led discovery, names the statement extractor (a new model or prompt reads every document again), the content still comparable; offline the version is as before", () => {
    const withModel = claimsVersionOf('abc', null, 'anthropic:claude|statements-v1');
    expect(withModel).toBe(`claims-v${CLAIMS_VERSION}+statements=anthropic:claude|statements-v1:abc`);
    expect(withModel).not.toBe(claimsVersionOf('abc', null, 'anthropic:claude|statements-v2'));
    expect(claimsVersionOf('abc', null, null)).toBe(claimsVersionOf('abc', null));
    expect(sameContent(withModel, claimsVersionOf('abc', null))).toBe(true);
  });

  it("keeps a model's verdict while the documents' content is the same, whatever reader or embedding model read their claims", () => {
    expect(sameContent(claimsVersionOf('abc', null), claimsVersionOf('abc', 'bge-small'))).toBe(true);
    expect(sameContent('claims-v2:abc', claimsVersionOf('abc', null))).toBe(true);
    expect(sameContent(claimsVersionOf('abc', null), claimsVersionOf('abd', null))).toBe(false);
    const now = new Map([
      ['kd_a', claimsVersionOf('h1', 'bge-small')],
      ['kd_b', claimsVersionOf('h2', null)],
    ]);
    expect(atVersions({ documentIds: ['kd_a', 'kd_b'] }, { kd_a: 'claims-v2:h1', kd_b: 'claims-v2:h2' }, now)).toBe(true);
    expect(atVersions({ documentIds: ['kd_a', 'kd_b'] }, { kd_a: 'claims-v2:h1', kd_b: 'claims-v2:h0' }, now)).toBe(false);
  });
});
