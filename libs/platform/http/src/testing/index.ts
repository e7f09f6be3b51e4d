/** Test support of the http platform's ports (`@svc/http/testing`): the RateLimiter contract suite. */
export * from '../rate-limit/testing/rate-limiter.contract';
