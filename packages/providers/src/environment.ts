/** The environment a provider reads its key and base URL from. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A variable's value, trimmed; `undefined` when it is unset or blank. */
export function environmentValue(env: Environment, variable: string): string | undefined {
  const value = env[variable]?.trim();
  return value === undefined || value === '' ? undefined : value;
}
