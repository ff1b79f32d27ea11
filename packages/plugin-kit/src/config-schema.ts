/**
 * TypeBox, bundled, for a plugin's `configSchema`: the kernel validates settings with its own copy, and TypeBox marks
 * schemas with global symbols (Symbol.for), so a schema built with this copy is read there as its own.
 */
export { Type } from '@sinclair/typebox';
export type { Static, TSchema } from '@sinclair/typebox';
