/** Typed capability tokens: the contracts plugins provide and consume through the kernel registry. */

export type Cardinality = 'one' | 'many';

export interface CapabilityToken<T, C extends Cardinality = Cardinality> {
  readonly id: string;
  readonly cardinality: C;
  /** For 'many' capabilities: a key that must be unique among providers (e.g. a load tool's id). */
  readonly key?: (impl: T) => string;
  /** Phantom field carrying the implementation type; never set at run time. */
  readonly __type?: T;
}

export function defineCapability<T>(options: { id: string; cardinality: 'one' }): CapabilityToken<T, 'one'>;
export function defineCapability<T>(options: {
  id: string;
  cardinality: 'many';
  key?: (impl: T) => string;
}): CapabilityToken<T, 'many'>;
export function defineCapability<T>(options: {
  id: string;
  cardinality: Cardinality;
  key?: (impl: T) => string;
}): CapabilityToken<T> {
  return Object.freeze({ ...options });
}

/** What `use` returns: one implementation, or every provided implementation in boot order. */
export type Resolved<Token> = Token extends CapabilityToken<infer T, 'one'>
  ? T
  : Token extends CapabilityToken<infer T, 'many'>
    ? readonly T[]
    : never;

/** Any token, whatever it carries: for registries that store tokens of many types side by side. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- `key` takes T, so T must be bivariant here.
export type AnyCapabilityToken = CapabilityToken<any>;
