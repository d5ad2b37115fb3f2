import { type ProvenanceEntry, verifyChain } from '@mtpx/mpl';
import { safeParseJson } from '@mtpx/protocol';
import { readFolderChain } from './provenance-folder';

/**
 * Where provenance chains come from: a running MPL proxy's base URL (and its bearer
 * token, if it has one), or a proxy's data folder (its `provenance.db`).
 */
export type ProvenanceSource = { url: string; token?: string } | { dataDir: string };

/** One link of a chain as the Inspector shows it, with its own verdict. */
export interface ProvenanceLink {
  entry: ProvenanceEntry;
  /** True when no check failed for this entry. */
  verified: boolean;
  problems: string[];
}

/**
 * A plan's chain from the proxy, each link verified here again (`verifyChain`): positions,
 * parent hashes, payload hashes and entry hashes — so an edited entry shows as such even
 * when the proxy's own verdict is not trusted.
 */
export async function readProvenance(
  source: ProvenanceSource,
  planId: string,
): Promise<{ status: number; body: unknown }> {
  if ('dataDir' in source) {
    const read = await readFolderChain(source.dataDir, planId);
    if (!read.ok)
      return { status: read.status, body: { error: { code: read.code, message: read.message } } };
    return verified(planId, read.entries);
  }
  const url = new URL('provenance', source.url.endsWith('/') ? source.url : `${source.url}/`);
  url.searchParams.set('planId', planId);
  url.searchParams.set('payloads', 'true');
  let response: Response;
  try {
    response = await fetch(url, {
      headers: source.token ? { authorization: `Bearer ${source.token}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    return {
      status: 502,
      body: {
        error: {
          code: 'proxy_unreachable',
          message: `The MPL proxy at ${source.url} did not answer: ${error instanceof Error ? error.message : String(error)}`,
        },
      },
    };
  }
  const parsed = safeParseJson(await response.text());
  if (!response.ok || !parsed.ok) {
    return {
      status: response.status === 404 ? 404 : 502,
      body: {
        error: {
          code: response.status === 404 ? 'plan_not_found' : 'proxy_error',
          message: `The MPL proxy answered ${response.status} for plan ${planId}.`,
        },
      },
    };
  }
  return verified(planId, ((parsed.value as { chain?: unknown }).chain ?? []) as ProvenanceEntry[]);
}

function verified(planId: string, chain: ProvenanceEntry[]): { status: number; body: unknown } {
  const verdict = verifyChain(chain);
  const links: ProvenanceLink[] = chain.map((entry, index) => {
    const problems = verdict.problems
      .filter((problem) => problem.index === index)
      .map((problem) => problem.message);
    return { entry, verified: problems.length === 0, problems };
  });
  return { status: 200, body: { planId, valid: verdict.valid, head: verdict.head, links } };
}
