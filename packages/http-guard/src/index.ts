export { checkJsonContentType } from './content-type';
export {
  checkHost,
  type HostPolicy,
  hostAllowList,
  hostName,
  isLoopbackAddress,
  LOOPBACK_HOSTS,
} from './host';
export { type BodyHeaders, checkBodyLength, clientErrorRefusal } from './limits';
export { checkOrigin, type OriginPolicy } from './origin';
export {
  quoted,
  REFUSAL_REASON,
  REFUSAL_STATUS,
  type RefusalKind,
  type RequestRefusal,
  refuse,
} from './refusal';
export {
  createRequestGuard,
  type GuardedRequest,
  type RequestGuardOptions,
} from './request-guard';
export { checkMethod, type ParsedTarget, parseTarget } from './target';
