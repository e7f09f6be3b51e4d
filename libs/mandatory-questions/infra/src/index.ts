/** The mandatory-questions context's public surface: its Nest module and its migrations. */
export { MandatoryQuestionsModule } from './mandatory-questions.module';
export { CreateMandatoryQuestionsSchema1763700001000 } from './mandatory-questions.migration';
