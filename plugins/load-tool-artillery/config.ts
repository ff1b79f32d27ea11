/** The Artillery plugin's configuration slice: where the artillery executable is (the agent host resolves it; plugins cannot read env). */
import { type Static, Type } from '@sinclair/typebox';

export const ArtilleryConfigSchema = Type.Object({
  binary: Type.String({
    minLength: 1,
    default: 'artillery',
    description:
      'the artillery executable: a name looked up on PATH, or a path (the host resolves ARTILLERY_BIN, PATH, ~/.cache/loadplane/artillery/<version>/node_modules/.bin/artillery)',
  }),
});

export type ArtilleryConfig = Static<typeof ArtilleryConfigSchema>;
