/** The jmeter plugin's configuration slice: the launcher to run (the agent host resolves it; plugins cannot read env). */
import { type Static, Type } from '@sinclair/typebox';

export const JmeterConfigSchema = Type.Object({
  binary: Type.String({
    minLength: 1,
    default: 'jmeter',
    description:
      'the JMeter launcher (bin/jmeter): a name looked up on PATH, or a path (the host resolves JMETER_BIN, PATH, ~/.cache/loadplane/jmeter/5.6.3/bin/jmeter)',
  }),
});

export type JmeterConfig = Static<typeof JmeterConfigSchema>;
