/**
 * A compose service's settings for a native process on this machine: a service's address (`keycloak:8080` in a URL) is
 * where its native stand-in listens (`127.0.0.1:<free port>`), and a path inside a volume is that volume's directory.
 * Everything else stays as the file says.
 */
import { mountsOf, type ComposeService } from './compose-file.ts';

export interface NativeMap {
  /** `service:containerPort` to `127.0.0.1:port`. */
  hosts: Record<string, string>;
  /** A named volume's (or bind mount's) host directory, by its name in the file. */
  volumes: Record<string, string>;
}

/** One value (an environment variable or an argument) of `service`, made native. */
export function nativeValue(service: ComposeService, value: string, map: NativeMap): string {
  let native = value.replace(/(\/\/)([a-z0-9_-]+:\d+)/gi, (match, slashes: string, address: string) => (map.hosts[address] ? `${slashes}${map.hosts[address]}` : match));
  for (const mount of mountsOf(service)) {
    const directory = map.volumes[mount.source];
    if (!directory) continue;
    if (native === mount.target || native.startsWith(`${mount.target}/`)) native = `${directory}${native.slice(mount.target.length)}`;
  }
  return native;
}

/** The service's environment, every value made native. */
export function nativeEnvironment(service: ComposeService, map: NativeMap): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, nativeValue(service, value, map)]));
}

/** The service's command (or a healthcheck's `CMD` arguments), every argument made native. */
export function nativeArgs(service: ComposeService, args: readonly string[], map: NativeMap): string[] {
  return args.map((arg) => nativeValue(service, arg, map));
}
