/** The Locust plugin's configuration slice: where the locust executable is (the agent host resolves it; plugins cannot read env). */
import { type Static, Type } from '@sinclair/typebox';

export const LocustConfigSchema = Type.Object({
  binary: Type.String({
    minLength: 1,
    default: 'locust',
    description:
      'the locust executable: a name looked up on PATH, or a path (the host resolves LOCUST_BIN, PATH, ~/.cache/loadplane/locust/<version>/bin/locust)',
  }),
});

export type LocustConfig = Static<typeof LocustConfigSchema>;
