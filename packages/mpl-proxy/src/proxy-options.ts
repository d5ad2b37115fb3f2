import type { Server } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HashAlgorithm, MplEngine, MplPolicy, ProvenanceStore } from '@mtpx/mpl';
import type { ProxyMetrics } from './proxy-metrics';
import type { MessageHub } from './routes/message-hub';

/** Options of `startProxy` (and `mpl serve`). */
export interface ProxyOptions {
  /** Port to listen on (default 9443; `0` picks a free one). */
  port?: number;
  /** Address to bind (default `127.0.0.1`: reachable from this machine only). */
  host?: string;
  /** Folder of the SQLite provenance database (default `~/.mpl`). */
  dataDir?: string;
  /** A provenance store to use instead of SQLite under `dataDir`. */
  store?: ProvenanceStore;
  /** Registry folders (STypes and `profiles/`) loaded after the built-ins. */
  stypes?: readonly string[];
  /** A ready engine, instead of loading one from `stypes`. */
  engine?: MplEngine;
  /** `strict` (default) blocks invalid messages with 422; `transparent` records and forwards them. */
  mode?: 'strict' | 'transparent';
  /** Forward accepted calls to this URL and answer with its response. */
  upstream?: string;
  /** How long to wait for the upstream (default 30 s). */
  upstreamTimeoutMs?: number;
  /** Bearer token required on every route but `/health`. */
  token?: string;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** `sem_hash` algorithm (default `sha256`). */
  hashAlgorithm?: HashAlgorithm;
  /** QoM profile for messages that name none (default `qom-basic`). */
  defaultProfile?: string;
  /** SQLite durability (see `SqliteProvenanceStore`); default `full`. */
  synchronous?: 'full' | 'normal';
  /**
   * `Host` names (without port) the proxy answers to; others get 403. Default: the
   * loopback names (`localhost`, `127.0.0.1`, `[::1]`) when bound to loopback; any host
   * when bound elsewhere and none are given.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins whose cross-site requests are let through: a full origin
   * (`https://app.example`), a host name (any scheme and port) or `*`. A request with
   * another `Origin` than the proxy's own host gets 403. Default: the `Host` names
   * (`allowedHosts`, or the loopback names when bound to loopback).
   */
  allowedOrigins?: readonly string[];
  /**
   * Time to receive a request's headers (default 10 s; then 408), counted from the
   * connection's opening for its first request and from the first byte of each later one.
   */
  headersTimeoutMs?: number;
  /** Time to receive a whole request, body included (default 30 s; then 408). */
  requestTimeoutMs?: number;
  /**
   * How long an idle keep-alive connection stays open (default 5 s). It is advertised in
   * `Keep-Alive: timeout=…`; the connection is closed no earlier than 1 s after that, so a
   * client that trusts the hint never reuses a connection as it closes.
   */
  idleTimeoutMs?: number;
  /**
   * Which HTTP/1.1 parser reads requests: `node` (default) is `node:http` alone; `fast` puts
   * the proxy's own layer in front of it for the plain requests (`GET`/`POST`, one
   * `Content-Length` body, …) and hands every other connection to `node:http`. Requests the
   * `fast` layer serves do not reach the server's `'request'` event nor `node:http`'s
   * diagnostics channels.
   */
  httpLayer?: 'node' | 'fast';
  /** Largest request head (request line and headers) accepted (default 16 KiB; then 431). */
  maxHeaderBytes?: number;
  /** Most simultaneous connections (default 1024); more are closed at once. */
  maxConnections?: number;
  /** SType allow / deny patterns, required profiles, size and rate limits (`E-POLICY-DENIED`). */
  policy?: MplPolicy;
  /**
   * The hub of `GET /messages` (default: a new one, this process's subscribers only). `mpl
   * serve --workers N` passes one that relays messages between the cluster's workers.
   * @internal
   */
  messageHub?: MessageHub;
}

/** A running proxy. */
export interface RunningProxy {
  /** `http://host:port` */
  url: string;
  host: string;
  port: number;
  mode: 'strict' | 'transparent';
  engine: MplEngine;
  store: ProvenanceStore;
  metrics: ProxyMetrics;
  server: Server;
  /** Stops accepting requests, ends open streams, commits and closes the store. */
  close(): Promise<void>;
}

/** The default port, as in the reference proxy and the tutorial. @internal */
export const DEFAULT_PORT = 9443;
/** The default body limit: 1 MiB. @internal */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The default time to receive a request's headers: 10 s. @internal */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** The default time to receive a whole request: 30 s. @internal */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** The default keep-alive idle time: 5 s. @internal */
export const DEFAULT_IDLE_TIMEOUT_MS = 5_000;
/** The default limit of a request head: 16 KiB. @internal */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;

/** The default data folder: `~/.mpl`. */
export function defaultDataDir(): string {
  return join(homedir(), '.mpl');
}
