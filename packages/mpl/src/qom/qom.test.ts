import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateQom } from './qom';
import { BUILTIN_QOM_PROFILES, loadQomProfiles } from './qom-profiles';

const profile = (name: string) => {
  const found = BUILTIN_QOM_PROFILES[name];
  if (!found) throw new Error(name);
  return found;
};

describe('QoM profiles', () => {
  it('carry the reference thresholds', () => {
    expect(profile('qom-basic').metrics).toEqual({ schema_fidelity: { min: 1, sample_rate: 1 } });
    expect(profile('qom-strict-argcheck').metrics.instruction_compliance?.min).toBe(0.97);
    expect(profile('qom-outcome').metrics.tool_outcome_correctness?.min).toBe(0.9);
    const comprehensive = profile('qom-comprehensive').metrics;
    expect(
      Object.fromEntries(
        Object.entries(comprehensive).map(([metric, threshold]) => [metric, threshold?.min]),
      ),
    ).toEqual({
      schema_fidelity: 1,
      instruction_compliance: 0.95,
      groundedness: 0.8,
      determinism_jitter: 0.9,
      ontology_adherence: 0.95,
      tool_outcome_correctness: 0.9,
    });
  });

  it('passes a valid message under qom-basic and reports each metric', () => {
    expect(
      evaluateQom(profile('qom-basic'), { schema_fidelity: 1, instruction_compliance: 0.5 }),
    ).toEqual({
      profile: 'qom-basic',
      passed: true,
      metrics: { schema_fidelity: 1, instruction_compliance: 0.5 },
      failures: [],
      failed_assertions: [],
    });
  });

  it('names the failing metric and its threshold', () => {
    const report = evaluateQom(profile('qom-strict-argcheck'), {
      schema_fidelity: 1,
      instruction_compliance: 0.5,
    });
    expect(report.passed).toBe(false);
    expect(report.failures).toEqual([
      {
        metric: 'instruction_compliance',
        actual: 0.5,
        threshold: 0.97,
        message: 'instruction_compliance is 0.5, below the 0.97 that qom-strict-argcheck requires',
      },
    ]);
  });

  it('needs a supplied tool outcome score under qom-outcome, and judges it', () => {
    const base = { schema_fidelity: 1, instruction_compliance: 1 };
    expect(evaluateQom(profile('qom-outcome'), base).failures[0]).toMatchObject({
      metric: 'tool_outcome_correctness',
      actual: null,
    });
    expect(
      evaluateQom(profile('qom-outcome'), { ...base, scores: { tool_outcome_correctness: 0.95 } })
        .passed,
    ).toBe(true);
    expect(
      evaluateQom(profile('qom-outcome'), { ...base, scores: { tool_outcome_correctness: 0.8 } })
        .passed,
    ).toBe(false);
  });

  it('judges groundedness only when a score is supplied, as the reference does', () => {
    const base = {
      schema_fidelity: 1,
      instruction_compliance: 0.96,
      scores: { tool_outcome_correctness: 0.92, ontology_adherence: 0.98 },
    };
    expect(evaluateQom(profile('qom-comprehensive'), base).passed).toBe(true);
    const low = evaluateQom(profile('qom-comprehensive'), {
      ...base,
      scores: { ...base.scores, groundedness: 0.5 },
    });
    expect(low.failures.map((failure) => failure.metric)).toEqual(['groundedness']);
  });

  it('loads profiles/*.json from a registry folder, replacing built-ins by name', async () => {
    const root = await mkdtemp(join(tmpdir(), 'mpl-profiles-'));
    await mkdir(join(root, 'profiles'));
    await writeFile(
      join(root, 'profiles', 'qom-lenient.json'),
      JSON.stringify({ name: 'qom-lenient', metrics: { instruction_compliance: { min: 0.5 } } }),
    );
    await writeFile(
      join(root, 'profiles', 'qom-basic.json'),
      JSON.stringify({ name: 'qom-basic', metrics: { schema_fidelity: { min: 0.5 } } }),
    );
    const profiles = await loadQomProfiles([root]);
    expect(profiles.get('qom-lenient')?.metrics.instruction_compliance).toEqual({
      min: 0.5,
      sample_rate: 1,
    });
    expect(profiles.get('qom-basic')?.metrics.schema_fidelity?.min).toBe(0.5);
    expect(profiles.has('qom-comprehensive')).toBe(true);
    await writeFile(
      join(root, 'profiles', 'broken.json'),
      JSON.stringify({ name: 'x', metrics: { speed: {} } }),
    );
    await expect(loadQomProfiles([root])).rejects.toThrowError(/not a QoM profile/);
  });
});
