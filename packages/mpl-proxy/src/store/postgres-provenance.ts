import { type HashAlgorithm, InternalError, type ProvenanceStore } from '@mtpx/mpl';

/** True for a `postgres://` or `postgresql://` URL: a provenance store in PostgreSQL. @internal */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** Where a PostgreSQL URL points, without its password: for logs. */
export function describePostgresUrl(location: string): string {
  const url = new URL(location);
  const schema = url.searchParams.get('schema') ?? 'public';
  return `PostgreSQL ${url.host}${url.pathname} (schema ${schema})`;
}

/**
 * Opens the provenance store a `postgres://user@host:5432/db?schema=mpl` URL names. The
 * `schema` parameter picks the schema of the tables (default `public`); the rest goes to
 * node-postgres as it is. `@mtpx/postgres` (and `pg`) are optional peers, loaded only
 * here: a proxy on SQLite never needs them.
 *
 * @example
 * ```ts source="./store.examples.ts#openPostgresProvenanceStore"
 * const store = await openPostgresProvenanceStore('postgres://mpl@db/mpl?schema=mpl');
 * const proxy = await startProxy({ store });
 * ```
 */
export async function openPostgresProvenanceStore(
  location: string,
  options: { algorithm?: HashAlgorithm } = {},
): Promise<ProvenanceStore> {
  const url = new URL(location);
  const schema = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  let postgres: typeof import('@mtpx/postgres');
  try {
    postgres = await import('@mtpx/postgres');
  } catch (cause) {
    throw new InternalError({
      message:
        'A postgres:// provenance store needs the @mtpx/postgres and pg packages: npm install @mtpx/postgres pg',
      cause,
    });
  }
  return new postgres.PostgresProvenanceStore({
    connectionString: url.toString(),
    ...(schema === undefined ? {} : { schema }),
    ...(options.algorithm === undefined ? {} : { algorithm: options.algorithm }),
  });
}
