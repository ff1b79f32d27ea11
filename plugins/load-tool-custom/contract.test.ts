/** The custom tool passes the load-tool contract, with a real shell script run. */
import { describeLoadToolContract } from 'loadplane/plugin/testing';
import { createCustomTool } from './custom-tool.ts';

describeLoadToolContract('custom', () => createCustomTool(), {
  goodScript: '#!/bin/sh\necho hello\n',
  badScripts: ['echo \0'],
  realRun: {
    // Twelve samples, two of them errors, a log line on each stream; the target is not needed.
    script: () =>
      [
        'echo "starting on machine $LOADPLANE_MACHINE_INDEX of $LOADPLANE_MACHINE_COUNT"',
        'i=0',
        'while [ "$i" -lt 12 ]; do',
        '  if [ "$i" -lt 2 ]; then echo "loadplane:sample $((i + 5)) error"; else echo "loadplane:sample $((i + 5)).5 ok"; fi',
        '  i=$((i + 1))',
        'done',
        'echo "finished" >&2',
      ].join('\n'),
    requests: 12,
    hitsTarget: false,
    logContains: 'starting on machine 0 of 1',
  },
});
