/**
 * The sorted export list of `entry` (a path or file URL of a `.ts` file): values by name,
 * types as `type Name`, namespaces as `* as name`.
 */
export function exportedNames(entry: string | URL): string[];
