// `@mtpx/mpl-proxy/internal`: what the proxy's pieces share and tools may need, outside
// the public API (may change in any release). Each symbol is tagged `@internal` where it is
// declared.
export { isLoopbackAddress, LOOPBACK_HOSTS } from './loopback';
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_PORT,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from './proxy-options';
export type { CallRouteContext } from './routes/call-context';
export { statusOf } from './routes/error-status';
export { MessageHub } from './routes/message-hub';
export { isPostgresUrl } from './store/postgres-provenance';
export { WalSync } from './store/wal-sync';
