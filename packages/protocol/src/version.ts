declare const __PACKAGE_VERSION__: string | undefined;

/** The MTP protocol version this package speaks, as written in every envelope's `mtp_version`. */
export const MTP_VERSION = '0.1.0';

/** The version of the `@mtpx/protocol` package itself (`0.0.0-dev` when run from source). */
export const VERSION: string =
  typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-dev';
