/**
 * A member of a {@link DeadlineList}: linked in place, so joining and leaving the list
 * allocate nothing.
 */
export abstract class Deadlined {
  /** `performance.now()` at which it falls due. */
  deadlineAt = 0;
  previousDue: Deadlined | undefined = undefined;
  nextDue: Deadlined | undefined = undefined;
  /** The list it is in, if any. */
  dueIn: DeadlineList | undefined = undefined;

  /** Its deadline passed: it has left the list already. */
  abstract expire(): void;
}

/**
 * The deadlines of one length (every call of a tool shares its deadline), kept in the
 * order they were set — the order they fall due, the clock being monotonic — under one
 * timer armed for the oldest. A call answered in time (nearly every call) only unlinks
 * itself, where a timer per call would be set and cleared; the timer is re-armed when it
 * fires for a member that has left meanwhile, and cleared when the list empties (so it
 * keeps no process alive longer than a per-call timer would). Deadlines stay exact.
 */
export class DeadlineList {
  readonly ms: number;
  #head: Deadlined | undefined = undefined;
  #tail: Deadlined | undefined = undefined;
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(ms: number) {
    this.ms = ms;
  }

  /** `member` falls due `ms` from now. */
  add(member: Deadlined): void {
    if (member.dueIn !== undefined) member.dueIn.remove(member);
    member.deadlineAt = performance.now() + this.ms;
    member.dueIn = this;
    member.previousDue = this.#tail;
    member.nextDue = undefined;
    if (this.#tail === undefined) this.#head = member;
    else this.#tail.nextDue = member;
    this.#tail = member;
    if (this.#timer === undefined) this.#arm(member.deadlineAt);
  }

  /** `member` no longer has a deadline (a no-op when it is not in this list). */
  remove(member: Deadlined): void {
    if (member.dueIn !== this) return;
    const { previousDue, nextDue } = member;
    if (previousDue === undefined) this.#head = nextDue;
    else previousDue.nextDue = nextDue;
    if (nextDue === undefined) this.#tail = previousDue;
    else nextDue.previousDue = previousDue;
    member.previousDue = undefined;
    member.nextDue = undefined;
    member.dueIn = undefined;
    if (this.#head === undefined && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  #arm(at: number): void {
    this.#timer = setTimeout(fire, Math.max(1, Math.ceil(at - performance.now())), this);
  }

  /** The timer fired: expires every member due by now, then waits for the next one. */
  fired(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (let head = this.#head; head !== undefined && head.deadlineAt <= now; head = this.#head) {
      this.remove(head);
      head.expire();
    }
    const head = this.#head;
    if (head !== undefined && this.#timer === undefined) this.#arm(head.deadlineAt);
  }
}

function fire(list: DeadlineList): void {
  list.fired();
}
