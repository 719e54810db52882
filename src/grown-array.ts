// A typed array grown by doubling, its contents kept: the one way the row thread's batch codec, the value guard's
// exact values and the journal draft's hash table make room (each held its own copy of these lines before).

/** The typed arrays grown here. */
export type GrowableArray = Int32Array | Uint32Array | Float64Array;

/** A new array of `array`'s type, twice its length (at least 1), holding its elements at the same places. */
export function doubled<T extends GrowableArray>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(1, array.length * 2));
  bigger.set(array);
  return bigger;
}
