/** Types of `snowball-stemmers` (JS port of the Snowball stemmers; the package ships none). */
declare module 'snowball-stemmers' {
  export interface Stemmer {
    stem(word: string): string;
  }
  export function newStemmer(algorithm: string): Stemmer;
  export function algorithms(): string[];
}
