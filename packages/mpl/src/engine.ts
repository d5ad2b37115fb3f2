import type { AssertionContext, AssertionResult } from './assertions';
import {
  createMplError,
  type ErrorDetail,
  type MplError,
  type MplErrorCode,
  NegotiationIncompatibleError,
  UnknownStypeError,
} from './errors';
import { planReferenceOf } from './provenance';
import { evaluateQom, type QomReport, type QomScores } from './qom';
import { DEFAULT_QOM_PROFILE, loadQomProfiles, type QomProfile } from './qom-profiles';
import { STypeRegistry } from './registry';
import { type HashAlgorithm, semanticHash } from './semantic-hash';
import { parseSTypeId } from './stype-id';

/** How to build an {@link MplEngine} from registry folders. */
export interface CreateMplEngineOptions {
  /** Registry folders in the reference layout (STypes and `profiles/`), after the built-ins. */
  directories?: readonly string[];
  /** Include the built-in STypes (default `true`). */
  builtins?: boolean;
  /** Algorithm of `sem_hash` (default `sha256`, as the tutorial shows; `b3` as the reference). */
  hashAlgorithm?: HashAlgorithm;
  /** Profile used when a message names none (default `qom-basic`). */
  defaultProfile?: string;
}

/** What {@link MplEngine.inspect} may be told besides the payload. */
export interface InspectOptions {
  /** QoM profile name (default: the engine's default profile). */
  profile?: string;
  /** Scores from outside judgement (groundedness, tool outcome, …). */
  scores?: QomScores;
  /** Extra CEL variables for assertions (`args`, `response`, `tool`, `metadata`). */
  context?: AssertionContext;
  /**
   * Judge an SType that is not registered instead of throwing (transparent mode): the
   * result has `validated: false`, `valid: false`, code `E-UNKNOWN-STYPE` and its hash.
   */
  allowUnknown?: boolean;
}

/** The verdict on one message: validity, QoM, semantic hash and where it belongs. */
export interface Inspection {
  stype: string;
  /** True when the payload (and its `args`, if typed) conform to their schemas. */
  valid: boolean;
  /**
   * True when `valid`, no `error`-severity assertion failed and the QoM profile passed:
   * what strict mode lets through.
   */
  accepted: boolean;
  /** `false` when the SType is not registered, so nothing could be checked (`allowUnknown`). */
  validated?: boolean;
  /** Failed assertions of severity `warning` or `info`: reported, never blocking by themselves. */
  warnings?: AssertionResult[];
  /** Why it was not accepted. */
  code?: MplErrorCode;
  /** Schema problems, by JSON path and layer. */
  errors: ErrorDetail[];
  semHash: string;
  qom: QomReport;
  planId?: string;
  invocationId?: string;
}

/**
 * MPL's message pipeline without transport: double validation, assertions (instruction
 * compliance), QoM against a profile, and the semantic hash. The proxy runs every
 * `POST /call` through it; agents can run it in process.
 *
 * @example
 * ```ts
 * const engine = await MplEngine.create();
 * const verdict = engine.inspect('org.agent.TaskPlan.v1', plan, { profile: 'qom-strict-argcheck' });
 * verdict.accepted; verdict.semHash; verdict.qom.metrics;
 * ```
 */
export class MplEngine {
  readonly registry: STypeRegistry;
  readonly profiles: ReadonlyMap<string, QomProfile>;
  readonly hashAlgorithm: HashAlgorithm;
  readonly defaultProfile: string;

  constructor(options: {
    registry: STypeRegistry;
    profiles: ReadonlyMap<string, QomProfile>;
    hashAlgorithm?: HashAlgorithm;
    defaultProfile?: string;
  }) {
    this.registry = options.registry;
    this.profiles = options.profiles;
    this.hashAlgorithm = options.hashAlgorithm ?? 'sha256';
    this.defaultProfile = options.defaultProfile ?? DEFAULT_QOM_PROFILE;
    if (!this.profiles.has(this.defaultProfile))
      throw new NegotiationIncompatibleError({
        message: `The default QoM profile ${this.defaultProfile} is not loaded`,
      });
  }

  /** Loads the registry and profiles from folders. Throws `RegistryError`. */
  static async create(options: CreateMplEngineOptions = {}): Promise<MplEngine> {
    const directories = options.directories ?? [];
    const registryOptions: { directories: readonly string[]; builtins?: boolean } = { directories };
    if (options.builtins !== undefined) registryOptions.builtins = options.builtins;
    const [registry, profiles] = await Promise.all([
      STypeRegistry.load(registryOptions),
      loadQomProfiles(directories),
    ]);
    const engineOptions: ConstructorParameters<typeof MplEngine>[0] = { registry, profiles };
    if (options.hashAlgorithm) engineOptions.hashAlgorithm = options.hashAlgorithm;
    if (options.defaultProfile) engineOptions.defaultProfile = options.defaultProfile;
    return new MplEngine(engineOptions);
  }

  /**
   * Judges one message. Throws {@link UnknownStypeError} for a malformed or unregistered
   * SType, `NegotiationIncompatibleError` for an unknown profile, and `InvalidRequestError`
   * for a payload JSON cannot carry; everything about the payload itself is in the result.
   */
  inspect(stype: string, payload: unknown, options: InspectOptions = {}): Inspection {
    const id = this.#parseId(stype);
    const profile = this.#profile(options.profile);
    const semHash = semanticHash(payload, { algorithm: this.hashAlgorithm });
    if (!this.registry.has(id)) {
      const unknown = new UnknownStypeError({
        message: `SType ${id} is not registered. Registered STypes: ${this.registry.ids().join(', ')}.`,
        details: [{ path: '', message: `${id} is not in the registry`, stype: id }],
      });
      if (!options.allowUnknown) throw unknown;
      return {
        stype: id,
        valid: false,
        accepted: false,
        validated: false,
        code: 'E-UNKNOWN-STYPE',
        errors: unknown.details,
        semHash,
        qom: {
          profile: profile.name,
          passed: false,
          metrics: {},
          failures: [],
          failed_assertions: [],
        },
        ...planReferenceOf(payload),
      };
    }
    const validation = this.registry.validateMessage(id, payload);
    const assertions = this.registry.assertions(id);
    const context: AssertionContext = options.context
      ? { stype: id, ...options.context }
      : { stype: id };
    const report = assertions?.evaluate(payload as never, context);
    const failed = report ? report.results.filter((result) => !result.passed) : [];
    const qom = evaluateQom(profile, {
      schema_fidelity: validation.valid ? 1 : 0,
      instruction_compliance: report ? report.instructionCompliance : 1,
      failedAssertions: failed,
      ...(options.scores ? { scores: options.scores } : {}),
    });
    const blocking = report ? report.errors : 0;
    const inspection: Inspection = {
      stype: id,
      valid: validation.valid,
      accepted: validation.valid && blocking === 0 && qom.passed,
      errors: validation.errors,
      semHash,
      qom,
      ...planReferenceOf(payload),
    };
    const warnings = failed.filter((result) => result.severity !== 'error');
    if (warnings.length > 0) inspection.warnings = warnings;
    if (validation.code) inspection.code = validation.code;
    else if (blocking > 0) inspection.code = 'E-ASSERTION-FAILED';
    else if (!qom.passed) inspection.code = 'E-QOM-BREACH';
    return inspection;
  }

  readonly #parsedIds = new Map<string, string>();

  /** The canonical id of `stype` (cached: the same few ids arrive on every call). */
  #parseId(stype: string): string {
    const cached = this.#parsedIds.get(stype);
    if (cached !== undefined) return cached;
    const parsed = parseSTypeId(stype);
    if (!parsed.ok) throw parsed.error;
    if (this.#parsedIds.size < 1024) this.#parsedIds.set(stype, parsed.value.id);
    return parsed.value.id;
  }

  #profile(name: string = this.defaultProfile): QomProfile {
    const profile = this.profiles.get(name);
    if (!profile)
      throw new NegotiationIncompatibleError({
        message: `QoM profile ${name} is not known. Known profiles: ${[...this.profiles.keys()].join(', ')}.`,
      });
    return profile;
  }

  /** The typed error strict mode answers with for a message that was not accepted. */
  rejection(inspection: Inspection): MplError {
    const code = inspection.code ?? 'E-QOM-BREACH';
    if (code === 'E-ASSERTION-FAILED') {
      const failed = inspection.qom.failed_assertions.filter(
        (assertion) => assertion.severity === 'error',
      );
      return createMplError(code, {
        message: `${inspection.stype} fails ${failed.length === 1 ? 'an error-severity assertion' : `${failed.length} error-severity assertions`}: ${failed.map((assertion) => `${assertion.id} (${assertion.message || 'failed'})`).join('; ')}`,
        details: failed.map((assertion) => ({
          path: `/qom/assertions/${assertion.id}`,
          message: assertion.error
            ? `${assertion.message} (${assertion.error})`
            : assertion.message,
        })),
      });
    }
    if (code === 'E-QOM-BREACH') {
      const details: ErrorDetail[] = [
        ...inspection.qom.failures.map((failure) => ({
          path: `/qom/metrics/${failure.metric}`,
          message: failure.message,
        })),
        ...inspection.qom.failed_assertions.map((assertion) => ({
          path: `/qom/assertions/${assertion.id}`,
          message: assertion.error
            ? `${assertion.message} (${assertion.error})`
            : assertion.message,
        })),
      ];
      return createMplError(code, {
        message: `${inspection.stype} does not meet QoM profile ${inspection.qom.profile}: ${inspection.qom.failures.map((failure) => failure.message).join('; ')}`,
        details,
      });
    }
    const shown = inspection.errors
      .slice(0, 3)
      .map((error) => `${error.path || '(payload)'} ${error.message}`)
      .join('; ');
    const more = inspection.errors.length > 3 ? ` (and ${inspection.errors.length - 3} more)` : '';
    const subject =
      code === 'E-TOOL-ARG-COERCION'
        ? `The args of this ${inspection.stype} do not conform to their args_stype`
        : code === 'E-UNKNOWN-STYPE'
          ? `This ${inspection.stype} names an unknown args_stype`
          : `The payload does not conform to ${inspection.stype}`;
    return createMplError(code, {
      message: `${subject}: ${shown}${more}`,
      details: inspection.errors,
    });
  }
}
