import type { MplErrorCode } from '@mtpx/mpl';

/** The HTTP status of each MPL error code. @internal */
export function statusOf(code: MplErrorCode): number {
  switch (code) {
    case 'E-INVALID-REQUEST':
      return 400;
    case 'E-UNAUTHORIZED':
      return 401;
    case 'E-POLICY-DENIED':
      return 403;
    case 'E-NOT-FOUND':
      return 404;
    case 'E-PAYLOAD-TOO-LARGE':
      return 413;
    case 'E-UPSTREAM':
      return 502;
    case 'E-INTERNAL':
    case 'E-REGISTRY':
    case 'E-CONNECTION':
      return 500;
    default:
      return 422;
  }
}
