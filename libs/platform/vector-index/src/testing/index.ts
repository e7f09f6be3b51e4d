/** Test support of the VectorIndex port (`@svc/vector-index/testing`): the contract suite every adapter runs. */
export * from './vector-index.contract';
