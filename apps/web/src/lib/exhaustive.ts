/** Every member of a union, listed once: `allOf<U>()([...])` fails to compile when one is missing or unknown. */
export function allOf<U extends string>() {
  return <const L extends readonly U[]>(list: L & ([U] extends [L[number]] ? unknown : { missing: Exclude<U, L[number]> })): L => list;
}
