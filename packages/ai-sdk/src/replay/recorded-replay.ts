import type { Json } from './recorded';
import {
  errorAnswer,
  type ReplayAnswer,
  type ReplayServer,
  startReplayServer,
} from './replay-server';

/** One recorded answer: the stream's chunks as JSON, and optionally a hold (see {@link ReplayAnswer}). */
export interface RecordedRound {
  events: Json[];
  hold?: { before: number; until: Promise<unknown> };
}

/** How one API is replayed. */
export interface ReplayApi {
  /** The stream's bytes, chunk by chunk, as the API writes them. */
  wire(events: readonly Json[]): Array<string | Uint8Array>;
  headers: Record<string, string>;
  /** The API's refusal of a request that breaks its rules (given the rounds answered so far), if any. */
  rule?(body: Json | undefined, issued: readonly Json[][]): ReplayAnswer | undefined;
}

/** A replay server answering `rounds` in order, each request checked first by the API's rule. */
export function startRecordedReplay(
  api: ReplayApi,
  rounds: readonly RecordedRound[],
): Promise<ReplayServer> {
  const issued: Json[][] = [];
  return startReplayServer((request) => {
    const refused = api.rule?.(request.body, issued);
    if (refused !== undefined) return refused;
    const round = rounds[issued.length];
    if (round === undefined) {
      return errorAnswer(500, { error: { message: 'replay server: no recorded answer left' } });
    }
    issued.push(round.events);
    return {
      headers: api.headers,
      chunks: api.wire(round.events),
      ...(round.hold === undefined ? {} : { hold: round.hold }),
    };
  });
}
