declare const __PACKAGE_VERSION__: string | undefined;

/** The version of the `@mtpx/ai-sdk` package (`0.0.0-dev` when run from source). */
export const VERSION: string =
  typeof __PACKAGE_VERSION__ === 'string' ? __PACKAGE_VERSION__ : '0.0.0-dev';
