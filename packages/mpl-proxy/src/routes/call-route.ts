import type { IncomingHttpHeaders } from 'node:http';
import {
  type ErrorDetail,
  type Inspection,
  type InspectOptions,
  InvalidRequestError,
  MplError,
  type ProvenanceEntryInput,
  QomScoresSchema,
  SemanticHashMismatchError,
  verifyHash,
} from '@mtpx/mpl';
import {
  type CallResponseBody,
  PROFILE_HEADER,
  QOM_RESULT_HEADER,
  SEM_HASH_HEADER,
  STYPE_HEADER,
} from '@mtpx/mpl/internal';
import { isJsonObject, type JsonObject, type JsonValue, safeParseJson } from '@mtpx/protocol';
import { type Exchange, sendError, sendJson } from '../http/exchange';
import type { CallRouteContext, ParsedCall } from './call-context';
import { statusOf } from './error-status';
import { forward, type UpstreamAnswer } from './upstream-forward';

const stypeHeader = STYPE_HEADER.toLowerCase();
const profileHeader = PROFILE_HEADER.toLowerCase();

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function invalid(message: string, path = ''): InvalidRequestError {
  return new InvalidRequestError({ message, details: [{ path, message }] });
}

/** Reads `{ method, payload }` (SType in `X-MPL-SType`) or an MPL envelope `{ stype, payload, … }`. */
function parseCall(headers: IncomingHttpHeaders, body: JsonObject): ParsedCall | MplError {
  const headerStype = header(headers, stypeHeader);
  const isEnvelope = typeof body.stype === 'string';
  if (!('payload' in body))
    return invalid('The body needs a payload: { "method": "…", "payload": {…} }', '/payload');
  if (body.method !== undefined && typeof body.method !== 'string')
    return invalid('method must be a string', '/method');
  if (!isEnvelope && typeof body.method !== 'string')
    return invalid(
      'The body needs a method: { "method": "agent.plan", "payload": {…} }',
      '/method',
    );
  const bodyStype = isEnvelope ? (body.stype as string) : undefined;
  if (headerStype && bodyStype && headerStype !== bodyStype)
    return invalid(
      `The ${STYPE_HEADER} header (${headerStype}) and the envelope's stype (${bodyStype}) disagree`,
    );
  const stype = headerStype ?? bodyStype;
  if (!stype)
    return invalid(
      `Name the payload's SType in the ${STYPE_HEADER} header (e.g. org.agent.TaskPlan.v1)`,
    );
  const profile =
    header(headers, profileHeader) ?? (typeof body.profile === 'string' ? body.profile : undefined);
  let scores: Record<string, number> | undefined;
  if (body.scores !== undefined) {
    const parsed = QomScoresSchema.safeParse(body.scores);
    if (!parsed.success)
      return new InvalidRequestError({
        message:
          'scores must map groundedness, determinism_jitter, ontology_adherence or tool_outcome_correctness to numbers from 0 to 1',
        details: parsed.error.issues.map((issue) => ({
          path: `/scores${issue.path.map((part) => `/${String(part)}`).join('')}`,
          message: issue.message,
        })),
      });
    scores = parsed.data as Record<string, number>;
  }
  if (body.sem_hash !== undefined && typeof body.sem_hash !== 'string')
    return invalid('sem_hash must be a string', '/sem_hash');
  return {
    method: typeof body.method === 'string' ? body.method : null,
    stype,
    payload: body.payload as JsonValue,
    profile,
    scores,
    declaredHash: body.sem_hash as string | undefined,
  };
}

/** `POST /call`: validate, judge, hash, record, then forward or acknowledge. */
export async function handleCall(context: CallRouteContext, exchange: Exchange): Promise<number> {
  const fail = (error: MplError, headers: Record<string, string> = {}) => {
    const status = statusOf(error.code);
    context.metrics.errors.inc({ code: error.code });
    sendError(exchange, status, error, headers);
    return status;
  };
  const body = await exchange.body(context.maxBodyBytes);
  if (!body.ok) return fail(body.error);
  const json = safeParseJson(body.text);
  if (!json.ok) return fail(invalid(`The body is not valid JSON: ${json.error.message}`));
  if (!isJsonObject(json.value)) return fail(invalid('The body must be a JSON object'));
  const call = parseCall(exchange.headers, json.value);
  if (call instanceof MplError) return fail(call);
  if (context.policy) {
    const decision = context.policy.check(call.stype, Buffer.byteLength(body.text));
    if (!decision.allowed) {
      context.metrics.errors.inc({ code: decision.error.code });
      sendError(exchange, decision.status, decision.error);
      return decision.status;
    }
    if (decision.requiredProfile) call.profile = decision.requiredProfile;
  }

  let inspection: Inspection;
  try {
    const options: InspectOptions = {};
    if (call.profile) options.profile = call.profile;
    if (call.scores) options.scores = call.scores;
    if (call.method) options.context = { metadata: { method: call.method } };
    if (context.mode === 'transparent') options.allowUnknown = true;
    inspection = context.engine.inspect(call.stype, call.payload, options);
  } catch (error) {
    if (!MplError.isInstance(error)) throw error;
    // A malformed id is a bad request; a well-formed id we do not know is unprocessable.
    const status =
      error.code === 'E-UNKNOWN-STYPE' && /Malformed/.test(error.message) ? 400 : undefined;
    if (status) {
      context.metrics.errors.inc({ code: error.code });
      sendError(exchange, status, error);
      return status;
    }
    return fail(error);
  }
  context.metrics.schemaValidations.inc({ result: inspection.valid ? 'pass' : 'fail' });
  context.metrics.qomEvaluations.inc({
    profile: inspection.qom.profile,
    result: inspection.qom.passed ? 'pass' : 'fail',
  });

  const errors: ErrorDetail[] = [...inspection.errors];
  let rejection: MplError | undefined = inspection.accepted
    ? undefined
    : context.engine.rejection(inspection);
  // The hash inspect computed is the payload's: a declaration equal to it needs no second pass.
  if (
    call.declaredHash &&
    call.declaredHash !== inspection.semHash &&
    !verifyHash(call.payload, call.declaredHash)
  ) {
    const mismatch = new SemanticHashMismatchError({
      message: `The envelope declares sem_hash ${call.declaredHash}, but the payload hashes to ${inspection.semHash}: it changed on the way`,
      details: [{ path: '/sem_hash', message: `expected ${inspection.semHash}` }],
    });
    errors.push(...mismatch.details);
    rejection ??= mismatch;
  }
  const mplHeaders = {
    [SEM_HASH_HEADER]: inspection.semHash,
    [QOM_RESULT_HEADER]: inspection.qom.passed ? 'pass' : 'fail',
    [STYPE_HEADER]: inspection.stype,
    [PROFILE_HEADER]: inspection.qom.profile,
  };
  if (rejection && context.mode === 'strict') {
    context.metrics.calls.inc({ stype: inspection.stype, outcome: 'rejected' });
    return fail(rejection, mplHeaders);
  }

  const record: ProvenanceEntryInput = {
    invocation_id: inspection.invocationId ?? null,
    stype: inspection.stype,
    method: call.method,
    sem_hash: inspection.semHash,
    payload: call.payload,
    qom_profile: inspection.qom.profile,
    qom_passed: inspection.qom.passed,
  };
  // A plan's messages join its chain; an invocation's, the chain of the plan it belongs to.
  if (inspection.planId) record.plan_id = inspection.planId;
  else if (!inspection.invocationId) record.plan_id = null;
  if (inspection.validated === false) record.validated = false;
  const entry = await context.store.append(record);
  context.metrics.provenanceEntries.inc();
  context.metrics.calls.inc({
    stype: inspection.stype,
    outcome: rejection ? 'passed_through' : 'accepted',
  });
  if (context.hub.size > 0)
    context.hub.publish({
      method: call.method,
      stype: entry.stype,
      payload: call.payload,
      sem_hash: entry.sem_hash,
      plan_id: entry.plan_id,
      seq: entry.seq,
      entry_hash: entry.entry_hash,
      timestamp: entry.timestamp,
      qom_passed: entry.qom_passed,
    });

  let data: JsonValue = call.payload;
  let answerCheck: UpstreamAnswer['check'];
  if (context.upstream) {
    const forwarded = await forward(context, call, inspection.semHash, exchange.headers);
    if (forwarded instanceof MplError) return fail(forwarded, mplHeaders);
    data = forwarded.data;
    answerCheck = forwarded.check;
  }
  const answer: CallAnswer = {
    valid: inspection.valid && errors.length === inspection.errors.length,
    stype: inspection.stype,
    sem_hash: inspection.semHash,
    qom: inspection.qom,
    provenance: {
      plan_id: entry.plan_id,
      seq: entry.seq,
      parent_hash: entry.parent_hash,
      entry_hash: entry.entry_hash,
      timestamp: entry.timestamp,
    },
    data,
    errors,
  };
  if (inspection.validated === false) answer.validated = false;
  if (inspection.warnings) answer.warnings = inspection.warnings;
  if (answerCheck) answer.response = answerCheck;
  sendJson(exchange, 200, answer, mplHeaders);
  return 200;
}

/** The 200 answer of `/call`: the wire body, and the upstream answer's check when forwarded. */
type CallAnswer = CallResponseBody & { response?: UpstreamAnswer['check'] };
