import { readFile } from 'node:fs/promises';
import { safeParseJson } from '@mtpx/protocol';
import { z } from 'zod';
import { PolicyDeniedError, RegistryError } from './errors';

const PatternsSchema = z.array(z.string().min(1)).default([]);

/** One rule of a policy file: what applies to the STypes its patterns match. */
const PolicyRuleSchema = z.object({
  /** SType patterns: an exact id, or `*` for any run of characters (`org.agent.*`, `*.v1`). */
  stypes: z.array(z.string().min(1)).min(1),
  /** The QoM profile these STypes are judged by, whatever the message asks for. */
  required_profile: z.string().min(1).optional(),
  /** The largest request body these STypes may come in, in bytes. */
  max_payload_bytes: z.number().int().positive().optional(),
  /** At most `requests` calls of these STypes per `window_seconds` (all clients together). */
  rate_limit: z
    .object({
      requests: z.number().int().positive(),
      window_seconds: z.number().positive(),
    })
    .strict()
    .optional(),
});

/** The zod schema of a policy file (see the README of `@mtpx/mpl`). */
export const PolicyFileSchema = z
  .object({
    /** When given, only STypes matching one of these patterns pass. */
    allow: PatternsSchema,
    /** STypes refused whatever else says (deny wins over allow). */
    deny: PatternsSchema,
    rules: z.array(PolicyRuleSchema.strict()).default([]),
  })
  .strict();

/** A policy file: SType allow / deny patterns and per-pattern rules. */
export type PolicyFile = z.input<typeof PolicyFileSchema>;

/** The verdict of {@link MplPolicy.check}. */
export type PolicyDecision =
  | { allowed: true; requiredProfile?: string }
  | { allowed: false; status: 403 | 413 | 429; error: PolicyDeniedError };

function compilePattern(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

interface CompiledRule {
  patterns: RegExp[];
  source: string;
  requiredProfile: string | undefined;
  maxBytes: number | undefined;
  rate: { requests: number; windowMs: number; windowStart: number; count: number } | undefined;
}

/**
 * The proxy's policy: which STypes may pass, which profile they are judged by, how large
 * and how often they may come. A refusal is `E-POLICY-DENIED` (403; 413 over the size,
 * 429 over the rate).
 *
 * @example
 * ```ts source="./engine.examples.ts#MplPolicy"
 * const policy = MplPolicy.from({
 *   deny: ['org.finance.*'],
 *   rules: [{ stypes: ['org.agent.*'], required_profile: 'qom-strict-argcheck' }],
 * });
 * policy.check('org.finance.Trade.v1', 120).allowed; // false
 * ```
 */
export class MplPolicy {
  readonly #allow: RegExp[];
  readonly #deny: RegExp[];
  readonly #rules: CompiledRule[];

  private constructor(file: z.output<typeof PolicyFileSchema>) {
    this.#allow = file.allow.map(compilePattern);
    this.#deny = file.deny.map(compilePattern);
    this.#rules = file.rules.map((rule) => ({
      patterns: rule.stypes.map(compilePattern),
      source: rule.stypes.join(', '),
      requiredProfile: rule.required_profile,
      maxBytes: rule.max_payload_bytes,
      rate: rule.rate_limit
        ? {
            requests: rule.rate_limit.requests,
            windowMs: rule.rate_limit.window_seconds * 1000,
            windowStart: 0,
            count: 0,
          }
        : undefined,
    }));
  }

  /** A policy from a parsed policy file. Throws {@link RegistryError} when it is malformed. */
  static from(input: unknown, source = 'policy'): MplPolicy {
    const parsed = PolicyFileSchema.safeParse(input);
    if (!parsed.success)
      throw new RegistryError({
        message: `${source} is not a policy file: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ')}`,
      });
    return new MplPolicy(parsed.data);
  }

  /** Reads a policy file (JSON). Throws {@link RegistryError}. */
  static async load(path: string): Promise<MplPolicy> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (cause) {
      throw new RegistryError({ message: `Cannot read the policy file ${path}`, cause });
    }
    const parsed = safeParseJson(text);
    if (!parsed.ok)
      throw new RegistryError({ message: `${path} is not valid JSON`, cause: parsed.error });
    return MplPolicy.from(parsed.value, path);
  }

  /** The profiles the rules require (to check they are loaded). */
  get requiredProfiles(): string[] {
    return this.#rules.flatMap((rule) => (rule.requiredProfile ? [rule.requiredProfile] : []));
  }

  /** Judges one call of `stype` that came in `bytes` bytes; counts it against rate limits. */
  check(stype: string, bytes: number, now = Date.now()): PolicyDecision {
    const id = stype.startsWith('urn:stype:') ? stype.slice('urn:stype:'.length) : stype;
    const deny = (status: 403 | 413 | 429, message: string): PolicyDecision => ({
      allowed: false,
      status,
      error: new PolicyDeniedError({ message, details: [{ path: '', message, stype: id }] }),
    });
    if (this.#deny.some((pattern) => pattern.test(id)))
      return deny(403, `The policy denies SType ${id}`);
    if (this.#allow.length > 0 && !this.#allow.some((pattern) => pattern.test(id)))
      return deny(403, `The policy allows only listed STypes, and ${id} is not one of them`);
    let requiredProfile: string | undefined;
    for (const rule of this.#rules) {
      if (!rule.patterns.some((pattern) => pattern.test(id))) continue;
      if (rule.maxBytes !== undefined && bytes > rule.maxBytes)
        return deny(
          413,
          `The policy allows ${id} up to ${rule.maxBytes} bytes; this one is ${bytes}`,
        );
      if (rule.rate) {
        if (now - rule.rate.windowStart >= rule.rate.windowMs) {
          rule.rate.windowStart = now;
          rule.rate.count = 0;
        }
        if (rule.rate.count >= rule.rate.requests)
          return deny(
            429,
            `The policy allows ${rule.rate.requests} calls of ${rule.source} per ${rule.rate.windowMs / 1000} s`,
          );
        rule.rate.count += 1;
      }
      requiredProfile ??= rule.requiredProfile;
    }
    return requiredProfile ? { allowed: true, requiredProfile } : { allowed: true };
  }
}
