import { leaseHeld, leaseLost, type RunLease } from './run-lease';

/**
 * A run's lease as a journal stores it (internal): who holds it, its fencing token, and
 * when it expires on the journal's clock.
 */
export interface StoredLease {
  holder: string;
  token: number;
  expiresAtMs: number;
}

/** The public view of a stored lease at `now`. */
export function leaseView(runId: string, lease: StoredLease, now: number): RunLease {
  return {
    runId,
    holder: lease.holder,
    token: lease.token,
    expiresAt: new Date(lease.expiresAtMs).toISOString(),
    expiresInMs: lease.expiresAtMs - now,
  };
}

/**
 * `RunJournal.acquireLease`'s rule, for journals that keep leases themselves: granted when
 * there is none, it expired, or `holder` holds it already (same token); the token goes up
 * by one when the holder changes. Throws `run_lease_held` while another holder's is live.
 */
export function acquiredLease(
  runId: string,
  stored: StoredLease | undefined,
  holder: string,
  ttlMs: number,
  now: number,
): StoredLease {
  if (stored !== undefined && stored.holder !== holder && stored.expiresAtMs > now) {
    throw leaseHeld(runId, leaseView(runId, stored, now));
  }
  const token =
    stored === undefined ? 1 : stored.holder === holder ? stored.token : stored.token + 1;
  return { holder, token, expiresAtMs: now + ttlMs };
}

/** `RunJournal.renewLease`'s rule: the same token, extended; `run_lease_lost` otherwise. */
export function renewedLease(
  runId: string,
  stored: StoredLease | undefined,
  token: number,
  ttlMs: number,
  now: number,
): StoredLease {
  if (stored === undefined || stored.token !== token) {
    throw leaseLost(runId, token, stored && leaseView(runId, stored, now));
  }
  return { ...stored, expiresAtMs: now + ttlMs };
}

/** `RunJournal.releaseLease`'s rule: the holder's live lease ends now; anything else is kept. */
export function releasedLease(
  stored: StoredLease | undefined,
  token: number,
  now: number,
): StoredLease | undefined {
  if (stored?.token === token && stored.expiresAtMs > now) return { ...stored, expiresAtMs: now };
  return stored;
}
