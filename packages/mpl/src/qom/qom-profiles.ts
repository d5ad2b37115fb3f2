import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { safeParseJson } from '@mtpx/protocol';
import { z } from 'zod';
import { RegistryError } from '../errors';

/** The six QoM metrics, by their wire names. */
export const QOM_METRICS = [
  'schema_fidelity',
  'instruction_compliance',
  'groundedness',
  'determinism_jitter',
  'ontology_adherence',
  'tool_outcome_correctness',
] as const;

/** One QoM metric: each is a score from 0 to 1. */
export type QomMetricName = (typeof QOM_METRICS)[number];

const MetricThresholdSchema = z.object({
  min: z.number().min(0).max(1),
  sample_rate: z.number().min(0).max(1).default(1),
});

/** The zod schema of a profile file (`profiles/<name>.json`) in the reference layout. */
export const QomProfileSchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  metrics: z.partialRecord(z.enum(QOM_METRICS), MetricThresholdSchema),
  retry_policy: z
    .object({
      max_retries: z.number().int().min(0),
      degrade_to: z.string().optional(),
      on_failure: z.enum(['escalate', 'error', 'warn']),
    })
    .optional(),
});

/** A QoM profile: the minimum each metric must reach, and what to do on failure. */
export type QomProfile = z.infer<typeof QomProfileSchema>;

/** The four reference profiles, with the reference thresholds. */
export const BUILTIN_QOM_PROFILES: Readonly<Record<string, QomProfile>> = {
  'qom-basic': {
    name: 'qom-basic',
    description: 'Basic validation: schema fidelity only',
    metrics: { schema_fidelity: { min: 1, sample_rate: 1 } },
  },
  'qom-strict-argcheck': {
    name: 'qom-strict-argcheck',
    description: 'Strict validation: schema fidelity 1.0, instruction compliance at least 0.97',
    metrics: {
      schema_fidelity: { min: 1, sample_rate: 1 },
      instruction_compliance: { min: 0.97, sample_rate: 1 },
    },
    retry_policy: { max_retries: 1, degrade_to: 'qom-basic', on_failure: 'escalate' },
  },
  'qom-outcome': {
    name: 'qom-outcome',
    description: 'Outcome validation: schema fidelity 1.0, tool outcome correctness at least 0.9',
    metrics: {
      schema_fidelity: { min: 1, sample_rate: 1 },
      tool_outcome_correctness: { min: 0.9, sample_rate: 1 },
    },
    retry_policy: { max_retries: 2, degrade_to: 'qom-basic', on_failure: 'error' },
  },
  'qom-comprehensive': {
    name: 'qom-comprehensive',
    description: 'Comprehensive validation: every metric enforced',
    metrics: {
      schema_fidelity: { min: 1, sample_rate: 1 },
      instruction_compliance: { min: 0.95, sample_rate: 1 },
      groundedness: { min: 0.8, sample_rate: 0.5 },
      determinism_jitter: { min: 0.9, sample_rate: 0.3 },
      ontology_adherence: { min: 0.95, sample_rate: 1 },
      tool_outcome_correctness: { min: 0.9, sample_rate: 1 },
    },
    retry_policy: { max_retries: 2, degrade_to: 'qom-strict-argcheck', on_failure: 'escalate' },
  },
};

/** The profile a message is judged by when none is asked for. */
export const DEFAULT_QOM_PROFILE = 'qom-basic';

/** Parses one profile (the contents of a profile file). Throws {@link RegistryError}. */
export function parseQomProfile(input: unknown, source = 'profile'): QomProfile {
  const parsed = QomProfileSchema.safeParse(input);
  if (!parsed.success)
    throw new RegistryError({
      message: `${source} is not a QoM profile: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ')}`,
    });
  return parsed.data;
}

/**
 * The built-in profiles plus every `profiles/*.json` of the given registry folders (a
 * registry root holding `profiles/`, or the `profiles/` folder itself). Later files
 * replace earlier profiles of the same name. Throws {@link RegistryError}.
 */
export async function loadQomProfiles(
  directories: readonly string[] = [],
): Promise<Map<string, QomProfile>> {
  const profiles = new Map<string, QomProfile>(Object.entries(BUILTIN_QOM_PROFILES));
  for (const directory of directories) {
    const folder = await profilesFolder(directory);
    if (!folder) continue;
    for (const file of (await readdir(folder)).filter((name) => name.endsWith('.json')).sort()) {
      const path = join(folder, file);
      const parsed = safeParseJson(await readFile(path, 'utf8'));
      if (!parsed.ok)
        throw new RegistryError({ message: `${path} is not valid JSON`, cause: parsed.error });
      const profile = parseQomProfile(parsed.value, path);
      profiles.set(profile.name, profile);
    }
  }
  return profiles;
}

async function profilesFolder(directory: string): Promise<string | undefined> {
  const nested = join(directory, 'profiles');
  if (await isDirectory(nested)) return nested;
  return basename(directory) === 'profiles' && (await isDirectory(directory))
    ? directory
    : undefined;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
