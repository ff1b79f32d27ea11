/** The k6 plugin's configuration slice: where the k6 binary is (the agent host resolves it; plugins cannot read env). */
import { type Static, Type } from '@sinclair/typebox';

export const K6ConfigSchema = Type.Object({
  binary: Type.String({
    minLength: 1,
    default: 'k6',
    description: 'the k6 executable: a name looked up on PATH, or a path (the host resolves K6_BIN, PATH, ~/.cache/loadplane/bin/k6)',
  }),
});

export type K6Config = Static<typeof K6ConfigSchema>;
