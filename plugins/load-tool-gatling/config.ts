/** The Gatling plugin's configuration slice: which launcher to run (the agent host finds it; plugins cannot read env). */
import { type Static, Type } from '@sinclair/typebox';

export const GatlingConfigSchema = Type.Object({
  launcher: Type.String({
    minLength: 1,
    default: 'gatling',
    description:
      "Loadplane's Gatling launcher (bin/gatling of scripts/install-engines gatling): a name looked up on PATH, or a path; the host resolves GATLING_BIN, PATH, ~/.cache/loadplane/gatling/<version>/bin/gatling",
  }),
});

export type GatlingConfig = Static<typeof GatlingConfigSchema>;
