import type { SafeResult } from '@mtpx/protocol';
import { UnknownStypeError } from '../errors';

/** The parts of an SType id `namespace.domain.Name.vN` (the namespace may hold dots: `com.acme`). */
export interface STypeIdParts {
  /** Everything before the domain: `org`, or `com.acme`. */
  namespace: string;
  domain: string;
  /** The type's name: `TaskPlan`. */
  name: string;
  /** The major version: `1` for `v1`. */
  version: number;
}

/** A parsed SType id: its parts, the short id and the `urn:stype:` form used as a schema `$id`. */
export interface STypeId extends STypeIdParts {
  /** `org.agent.TaskPlan.v1` */
  id: string;
  /** `urn:stype:org.agent.TaskPlan.v1` */
  urn: string;
}

/** The longest SType id accepted, as in the reference implementation. @internal */
export const MAX_STYPE_ID_LENGTH = 256;
const maxNamespaceDepth = 10;
const maxVersion = 999;
const urnPrefix = 'urn:stype:';
const segmentPattern = /^[A-Za-z][A-Za-z0-9_-]*$/;
const versionPattern = /^v(0|[1-9][0-9]*)$/;

const example = 'org.agent.TaskPlan.v1';

function invalid(text: string, reason: string): { ok: false; error: UnknownStypeError } {
  const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return {
    ok: false,
    error: new UnknownStypeError({
      message: `Malformed SType id ${JSON.stringify(shown)}: ${reason}. An SType id reads namespace.domain.Name.vN, e.g. ${example}.`,
      details: [{ path: '', message: reason }],
    }),
  };
}

/**
 * Parses an SType id (`org.agent.TaskPlan.v1`, or its `urn:stype:` form) without throwing.
 * A malformed id gives an {@link UnknownStypeError} saying what is wrong, as the reference does.
 *
 * @example
 * ```ts source="./registry.examples.ts#parseSTypeId"
 * const parsed = parseSTypeId('com.acme.finance.Trade.v2');
 * if (parsed.ok) parsed.value.namespace; // 'com.acme'
 * ```
 */
export function parseSTypeId(text: string): SafeResult<STypeId, UnknownStypeError> {
  if (typeof text !== 'string' || text.length === 0) return invalid(String(text), 'it is empty');
  if (text.length > MAX_STYPE_ID_LENGTH)
    return invalid(text, `it is longer than ${MAX_STYPE_ID_LENGTH} characters`);
  const bare = text.startsWith(urnPrefix) ? text.slice(urnPrefix.length) : text;
  const segments = bare.split('.');
  if (segments.length < 4)
    return invalid(text, `it has ${segments.length} dot-separated part(s), at least 4 are needed`);
  if (segments.length > maxNamespaceDepth + 3)
    return invalid(text, `its namespace is deeper than ${maxNamespaceDepth} parts`);
  const versionText = segments[segments.length - 1] as string;
  const versionMatch = versionPattern.exec(versionText);
  if (!versionMatch)
    return invalid(
      text,
      `the version part ${JSON.stringify(versionText)} must be v followed by a number without leading zeros`,
    );
  const version = Number(versionMatch[1]);
  if (version > maxVersion) return invalid(text, `version ${version} is above ${maxVersion}`);
  for (const segment of segments.slice(0, -1)) {
    if (!segmentPattern.test(segment))
      return invalid(
        text,
        segment === ''
          ? 'it has an empty part'
          : `the part ${JSON.stringify(segment)} must start with a letter and hold only letters, digits, _ and -`,
      );
  }
  const name = segments[segments.length - 2] as string;
  const domain = segments[segments.length - 3] as string;
  const namespace = segments.slice(0, -3).join('.');
  const id = `${namespace}.${domain}.${name}.v${version}`;
  return { ok: true, value: { namespace, domain, name, version, id, urn: `${urnPrefix}${id}` } };
}

/** True when `text` is a well-formed SType id. */
export function isSTypeId(text: unknown): text is string {
  return typeof text === 'string' && parseSTypeId(text).ok;
}

/**
 * Writes an SType id from its parts: `{ namespace: 'org', domain: 'agent', name: 'TaskPlan',
 * version: 1 }` → `org.agent.TaskPlan.v1`. Throws {@link UnknownStypeError} when the parts do
 * not make a valid id.
 */
export function formatSTypeId(parts: STypeIdParts): string {
  const text = `${parts.namespace}.${parts.domain}.${parts.name}.v${parts.version}`;
  const parsed = parseSTypeId(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.value.id;
}
