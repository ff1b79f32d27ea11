/**
 * A plugin setting that stops the start: the message names the plugin, the key and where the value came from (a
 * variable, the config file), and shows a value only when it is not a secret. A boot error, so the service's and the
 * agent's entries report it as one (a message, no stack).
 */
import { KernelBootError } from '../core/kernel/errors.ts';

export class PluginConfigError extends KernelBootError {
  constructor(message: string) {
    super(message);
    this.name = 'PluginConfigError';
  }
}
