/** The program-lookup port: whether a program (a name on PATH, or a path) can run on this machine, and where it is. */
import { defineCapability } from '../kernel/define-capability.ts';

/** The absolute path of an executable `program`, or null when there is none (ProcessRunner.which fits). */
export type ProgramLookup = (program: string) => Promise<string | null>;

export const programLookupPort = defineCapability<ProgramLookup>({ id: 'port.programLookup', cardinality: 'one' });
