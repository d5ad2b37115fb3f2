import {
  createMplError,
  type ErrorDetail,
  type MplError,
  type MplErrorCode,
  NegotiationIncompatibleError,
  UnknownStypeError,
} from './errors';
import { type HashAlgorithm, semanticHash } from './hashing/semantic-hash';
import { addPlanReference } from './provenance/provenance';
import type { AssertionContext, AssertionResult } from './qom/assertions';
import { evaluateQom, type QomMeasurement, type QomReport, type QomScores } from './qom/qom';
import { DEFAULT_QOM_PROFILE, loadQomProfiles, type QomProfile } from './qom/qom-profiles';
import type { OntologyReport } from './registry/ontology';
import { STypeRegistry } from './registry/registry';
import { parseSTypeId } from './registry/stype-id';

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
  /** Ontology adherence computed from the SType's `ontology.json`, when it has constraints. */
  ontology?: OntologyReport;
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
 * ```ts source="./engine.examples.ts#MplEngine"
 * const engine = await MplEngine.create();
 * const verdict = engine.inspect('org.agent.TaskPlan.v1', plan, { profile: 'qom-strict-argcheck' });
 * console.log(verdict.accepted, verdict.semHash, verdict.qom.metrics);
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
      const unknownInspection: Inspection = {
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
      };
      addPlanReference(unknownInspection, payload);
      return unknownInspection;
    }
    const validation = this.registry.validateMessage(id, payload);
    const assertions = this.registry.assertions(id);
    const context: AssertionContext = { stype: id };
    if (options.context) Object.assign(context, options.context);
    const report = assertions?.evaluate(payload as never, context);
    const failed: AssertionResult[] = [];
    if (report) for (const result of report.results) if (!result.passed) failed.push(result);
    let scores = options.scores;
    const ontology = this.registry.ontology(id);
    const adherence =
      ontology && ontology.constraints > 0 && scores?.ontology_adherence === undefined
        ? ontology.check(payload as never)
        : undefined;
    if (adherence) scores = { ...scores, ontology_adherence: adherence.score };
    const samplePoint = samplePointOf(semHash);
    const measurement: QomMeasurement = {
      schema_fidelity: validation.valid ? 1 : 0,
      instruction_compliance: report ? report.instructionCompliance : 1,
      failedAssertions: failed,
      samplePoint,
    };
    if (scores) measurement.scores = scores;
    let qom = evaluateQom(profile, measurement);
    const blocking = report ? report.errors : 0;
    if (validation.valid && blocking === 0 && !qom.passed)
      qom = this.#degrade(profile, qom, semHash, (degraded) => evaluateQom(degraded, measurement));
    const inspection: Inspection = {
      stype: id,
      valid: validation.valid,
      accepted: validation.valid && blocking === 0 && qom.passed,
      errors: validation.errors,
      semHash,
      qom,
    };
    addPlanReference(inspection, payload);
    if (adherence) inspection.ontology = adherence;
    const warnings = failed.filter((result) => result.severity !== 'error');
    if (warnings.length > 0) inspection.warnings = warnings;
    if (validation.code) inspection.code = validation.code;
    else if (blocking > 0) inspection.code = 'E-ASSERTION-FAILED';
    else if (!qom.passed) inspection.code = 'E-QOM-BREACH';
    return inspection;
  }

  readonly #parsedIds = new Map<string, string>();
  /** Failures of the same message (profile and semantic hash), for `retry_policy`. */
  readonly #failures = new Map<string, number>();

  /**
   * `retry_policy.degrade_to`: a message that keeps failing its profile (the same payload
   * sent more than `max_retries` times after its first failure) is judged by the profile
   * it degrades to (and so on down the chain); a pass there is reported with `degraded_from`.
   */
  #degrade(
    profile: QomProfile,
    failed: QomReport,
    semHash: string,
    judge: (profile: QomProfile) => QomReport,
  ): QomReport {
    const policy = profile.retry_policy;
    if (!policy?.degrade_to) return failed;
    const key = `${profile.name}\u0000${semHash}`;
    const failures = (this.#failures.get(key) ?? 0) + 1;
    if (this.#failures.size >= 10_000) this.#failures.clear();
    this.#failures.set(key, failures);
    if (failures <= policy.max_retries) return failed;
    const seen = new Set([profile.name]);
    let next = this.profiles.get(policy.degrade_to);
    while (next && !seen.has(next.name)) {
      seen.add(next.name);
      const report = judge(next);
      if (report.passed) return { ...report, degraded_from: profile.name };
      next = next.retry_policy?.degrade_to
        ? this.profiles.get(next.retry_policy.degrade_to)
        : undefined;
    }
    return failed;
  }

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

/** Where a message falls in [0, 1) for `sample_rate`: the first 32 bits of its hash. */
function samplePointOf(semHash: string): number {
  const start = semHash.indexOf(':') + 1;
  if (start === 0 || semHash.length < start + 8) return slowSamplePointOf(semHash);
  let value = 0;
  for (let index = start; index < start + 8; index++) {
    const unit = semHash.charCodeAt(index);
    const digit =
      unit >= 0x30 && unit <= 0x39 ? unit - 0x30 : unit >= 0x61 && unit <= 0x66 ? unit - 0x57 : -1;
    if (digit < 0) return slowSamplePointOf(semHash);
    value = value * 16 + digit;
  }
  return value / 2 ** 32;
}

function slowSamplePointOf(semHash: string): number {
  const hex = semHash.slice(semHash.indexOf(':') + 1, semHash.indexOf(':') + 9);
  const value = Number.parseInt(hex, 16);
  return Number.isFinite(value) ? value / 2 ** 32 : 0;
}
