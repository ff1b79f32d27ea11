/**
 * The git port: reads the files of one branch's newest commit from a remote repository over HTTP(S), connecting only
 * to an address the outbound URL guard has checked, within a byte budget and a deadline. The adapter (a pure-JS git
 * client) keeps nothing after it answers.
 */
import { defineCapability } from '../kernel/define-capability.ts';

export interface GitFetchRequest {
  /** http(s) URL of the repository, already checked by the outbound URL guard. */
  url: URL;
  /** The checked address every request connects to (TLS still verifies the URL's host name). */
  address: string;
  branch: string;
  /** HTTP basic credentials (a token goes in `password`); null: anonymous. */
  credentials: { username: string; password: string } | null;
  /** Only files at or below this repository path are read ('' is the whole repository). */
  path: string;
  /** Which files (repository-relative paths) to read; the rest is not even unpacked. */
  wanted(path: string): boolean;
  /** Bytes downloaded across all requests of the fetch; past it the fetch stops with an error. */
  maxFetchBytes: number;
  /** Wanted files larger than this are listed as skipped, not read. */
  maxFileBytes: number;
  timeoutMillis: number;
}

export interface GitFile {
  path: string;
  content: string;
}

export type GitFetchResult =
  | { ok: true; commit: string; files: GitFile[]; skipped: { path: string; reason: string }[] }
  | { ok: false; error: string };

export type GitFetcher = (request: GitFetchRequest) => Promise<GitFetchResult>;

export const gitFetcherPort = defineCapability<GitFetcher>({ id: 'port.gitFetcher', cardinality: 'one' });
