/** Test support of the repository core's ports (`@svc/repository-core/testing`): the AnswerComposer contract suite. */
export * from '../answers/testing/answer-composer.contract';
