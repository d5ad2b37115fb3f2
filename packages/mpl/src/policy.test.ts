import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PolicyDeniedError, RegistryError } from './errors';
import { MplPolicy } from './policy';

describe('MplPolicy', () => {
  const policy = MplPolicy.from({
    allow: ['org.agent.*', 'ai.agent.*', 'org.finance.*'],
    deny: ['org.finance.*'],
    rules: [
      { stypes: ['org.agent.ToolInvocation.v1'], required_profile: 'qom-strict-argcheck' },
      { stypes: ['ai.agent.*'], max_payload_bytes: 100 },
      { stypes: ['org.agent.TaskPlan.v1'], rate_limit: { requests: 2, window_seconds: 60 } },
    ],
  });

  it('denies by pattern (deny wins over allow) and refuses what allow does not list', () => {
    const denied = policy.check('org.finance.Trade.v1', 10);
    expect(denied).toMatchObject({ allowed: false, status: 403 });
    if (!denied.allowed) expect(PolicyDeniedError.isInstance(denied.error)).toBe(true);
    expect(policy.check('eval.rag.RAGQuery.v1', 10)).toMatchObject({ allowed: false, status: 403 });
    expect(policy.check('urn:stype:org.agent.ToolResult.v1', 10)).toEqual({ allowed: true });
  });

  it('names the profile a pattern requires', () => {
    expect(policy.check('org.agent.ToolInvocation.v1', 10)).toEqual({
      allowed: true,
      requiredProfile: 'qom-strict-argcheck',
    });
    expect(policy.requiredProfiles).toEqual(['qom-strict-argcheck']);
  });

  it('refuses a body over the size limit with 413 and calls over the rate with 429', () => {
    expect(policy.check('ai.agent.Reasoning.v1', 100)).toEqual({ allowed: true });
    expect(policy.check('ai.agent.Reasoning.v1', 101)).toMatchObject({
      allowed: false,
      status: 413,
    });
    const now = 1_000_000;
    expect(policy.check('org.agent.TaskPlan.v1', 1, now).allowed).toBe(true);
    expect(policy.check('org.agent.TaskPlan.v1', 1, now + 1).allowed).toBe(true);
    expect(policy.check('org.agent.TaskPlan.v1', 1, now + 2)).toMatchObject({ status: 429 });
    expect(policy.check('org.agent.TaskPlan.v1', 1, now + 60_000).allowed).toBe(true);
  });

  it('loads a file and refuses a malformed one', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mpl-policy-'));
    const file = join(directory, 'policy.json');
    await writeFile(file, JSON.stringify({ deny: ['*.v9'] }));
    expect((await MplPolicy.load(file)).check('a.b.C.v9', 1).allowed).toBe(false);
    expect(() => MplPolicy.from({ rules: [{ stypes: [] }] })).toThrowError(RegistryError);
    expect(() => MplPolicy.from({ denny: [] })).toThrowError(/not a policy file/);
    await writeFile(file, '{');
    await expect(MplPolicy.load(file)).rejects.toThrowError(/not valid JSON/);
  });
});
