/** A typed, in-process hook bus: `hook()` registers and returns an unregister, `callHook()` awaits every handler in order. */

export type HookHandler<Payload> = (payload: Payload) => void | Promise<void>;

export interface HookBus<Hooks extends object> {
  hook<Name extends keyof Hooks>(name: Name, handler: HookHandler<Hooks[Name]>): () => void;
  callHook<Name extends keyof Hooks>(name: Name, payload: Hooks[Name]): Promise<void>;
  /** Number of handlers, for diagnostics and tests. */
  count(name: keyof Hooks): number;
}

export function createHookBus<Hooks extends object>(onError?: (name: string, error: unknown) => void): HookBus<Hooks> {
  const handlers = new Map<keyof Hooks, HookHandler<never>[]>();

  return {
    hook(name, handler) {
      const list = handlers.get(name) ?? [];
      list.push(handler as HookHandler<never>);
      handlers.set(name, list);
      return () => {
        const current = handlers.get(name);
        if (!current) return;
        const index = current.indexOf(handler as HookHandler<never>);
        if (index >= 0) current.splice(index, 1);
      };
    },
    async callHook(name, payload) {
      // Copy first so a handler that unregisters itself does not skip its neighbour.
      for (const handler of [...(handlers.get(name) ?? [])]) {
        try {
          await (handler as HookHandler<typeof payload>)(payload);
        } catch (error) {
          // Hooks notify; one failing listener must not break the change that already happened.
          if (onError) onError(String(name), error);
          else throw error;
        }
      }
    },
    count(name) {
      return handlers.get(name)?.length ?? 0;
    },
  };
}
