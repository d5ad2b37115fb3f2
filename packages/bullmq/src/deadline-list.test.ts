import { describe, expect, it } from 'vitest';
import { Deadlined, DeadlineList } from './deadline-list';

class Member extends Deadlined {
  expiredAt = -1;
  constructor(readonly started = performance.now()) {
    super();
  }
  expire(): void {
    this.expiredAt = performance.now();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('DeadlineList', () => {
  it('expires each member at its own deadline, under one timer, and never one that left', async () => {
    const list = new DeadlineList(40);
    const first = new Member();
    const gone = new Member();
    list.add(first);
    list.add(gone);
    await sleep(15);
    const later = new Member();
    list.add(later);
    list.remove(gone);
    list.remove(first); // the timer armed for `first` fires, finds `later` not due, re-arms
    await sleep(80);
    expect(first.expiredAt).toBe(-1);
    expect(gone.expiredAt).toBe(-1);
    expect(later.expiredAt - later.started).toBeGreaterThanOrEqual(39);
    expect(later.dueIn).toBeUndefined();
  });

  it('lets the process go once empty (no timer left)', async () => {
    const list = new DeadlineList(60_000);
    const member = new Member();
    list.add(member);
    list.remove(member);
    list.remove(member); // twice: a no-op
    expect(member.dueIn).toBeUndefined();
    await sleep(1);
  });
});
