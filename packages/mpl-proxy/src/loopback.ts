import {
  LOOPBACK_HOSTS as GUARD_LOOPBACK_HOSTS,
  isLoopbackAddress as guardIsLoopbackAddress,
} from '@mtpx/http-guard';

// The request guard is a private package bundled into this one: these are typed here so
// that the published declarations never import it.

/** The host names of the loopback interface (was public; the guard's). @internal */
export const LOOPBACK_HOSTS: readonly string[] = GUARD_LOOPBACK_HOSTS;

/** True for an address of the loopback interface (`127.0.0.0/8`, `::1`, `localhost`). @internal */
export const isLoopbackAddress: (address: string) => boolean = guardIsLoopbackAddress;
