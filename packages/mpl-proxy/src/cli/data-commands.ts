import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalize, type HashAlgorithm, MplEngine, STypeRegistry, verifyChain } from '@mtpx/mpl';
import { hashCanonical } from '@mtpx/mpl/internal';
import { defaultDataDir } from '../proxy-options';
import { describePostgresUrl, openPostgresProvenanceStore } from '../store/postgres-provenance';
import { SqliteProvenanceStore } from '../store/sqlite-provenance-store';
import { oneOf, parse, postgresLocation, readJsonFile, strings } from './cli-arguments';
import { out, printHelp } from './cli-help';
import { UsageError } from './usage-error';

// `mpl schemas`, `mpl validate`, `mpl hash` and `mpl provenance`: loaded only when one runs.

/** `mpl schemas list|show …` */
export async function schemas(argv: string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand !== 'list' && subcommand !== 'show') {
    if (subcommand === undefined || subcommand === '--help' || subcommand === '-h')
      return printHelp('mpl');
    throw new UsageError(`Unknown command: mpl schemas ${subcommand} (try list or show)`);
  }
  const { values, positionals } = parse(rest, {
    namespace: { type: 'string' },
    stypes: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  if (values.help) return printHelp(`schemas ${subcommand}`);
  const registry = await STypeRegistry.load({ directories: strings(values.stypes) });
  if (subcommand === 'list') {
    const list = registry.list(values.namespace ? { namespace: values.namespace as string } : {});
    if (values.json) out(JSON.stringify(list, null, 2));
    else if (list.length === 0)
      out(`No STypes${values.namespace ? ` under ${values.namespace}` : ''}.`);
    else {
      const width = Math.max(...list.map((summary) => summary.id.length));
      for (const summary of list)
        out(`${summary.id.padEnd(width)}  ${summary.title ?? ''}`.trimEnd());
    }
    return 0;
  }
  const id = positionals[0];
  if (!id)
    throw new UsageError(
      'mpl schemas show needs an SType id: mpl schemas show org.agent.TaskPlan.v1',
    );
  const definition = registry.get(id);
  if (!definition) {
    process.stderr.write(`SType ${id} is not registered. Try mpl schemas list.\n`);
    return 1;
  }
  const { source: _source, ...shown } = definition;
  out(JSON.stringify(shown, null, 2));
  return 0;
}

/** `mpl validate ID FILE` */
export async function validate(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    profile: { type: 'string' },
    stypes: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  });
  if (values.help) return printHelp('validate');
  const [id, file] = positionals;
  if (!id || !file)
    throw new UsageError(
      'mpl validate needs an SType id and a file: mpl validate org.agent.TaskPlan.v1 plan.json',
    );
  const engine = await MplEngine.create({ directories: strings(values.stypes) });
  const payload = await readJsonFile(file);
  const verdict = engine.inspect(
    id,
    payload,
    values.profile ? { profile: values.profile as string } : {},
  );
  if (values.json) out(JSON.stringify(verdict, null, 2));
  else if (verdict.accepted)
    out(
      `valid: ${file} is a ${verdict.stype} (QoM ${verdict.qom.profile} passed)\nsem_hash: ${verdict.semHash}`,
    );
  else {
    const error = engine.rejection(verdict);
    out(`invalid: ${file} [${error.code}]`);
    for (const detail of error.details)
      out(
        `  ${detail.path || '(payload)'}: ${detail.message}${detail.layer === 'args' ? ` (args, ${detail.stype})` : ''}`,
      );
  }
  return verdict.accepted ? 0 : 1;
}

/** `mpl hash FILE` */
export async function hash(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    alg: { type: 'string' },
    canonical: { type: 'boolean' },
  });
  if (values.help) return printHelp('hash');
  const file = positionals[0];
  if (!file) throw new UsageError('mpl hash needs a file: mpl hash payload.json');
  const algorithm: HashAlgorithm =
    oneOf(values.alg, ['sha256', 'b3'] as const, '--alg') ?? 'sha256';
  const canonical = canonicalize(await readJsonFile(file));
  out(values.canonical ? canonical : hashCanonical(canonical, algorithm));
  return 0;
}

/** `mpl provenance PLAN_ID` */
export async function provenance(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, {
    verify: { type: 'boolean' },
    data: { type: 'string' },
    provenance: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) return printHelp('provenance');
  const planId = positionals[0];
  if (!planId)
    throw new UsageError(
      'mpl provenance needs a plan id: mpl provenance 550e8400-e29b-41d4-a716-446655440010',
    );
  const location = postgresLocation(values.provenance);
  const dataDir = (values.data as string | undefined) ?? defaultDataDir();
  const database = location ? describePostgresUrl(location) : join(dataDir, 'provenance.db');
  // A read creates nothing: no folder, no empty database.
  if (!location && !existsSync(database)) {
    process.stderr.write(
      `No provenance database in ${dataDir} (no ${database}): pass --data DIR, the folder the proxy was started with.\n`,
    );
    return 1;
  }
  const store = location
    ? await openPostgresProvenanceStore(location)
    : SqliteProvenanceStore.open({ dataDir, readOnly: true });
  try {
    const chain = await store.chain(planId, { payloads: Boolean(values.verify) });
    if (chain.length === 0) {
      process.stderr.write(`No provenance is recorded for plan ${planId} in ${database}.\n`);
      return 1;
    }
    const verdict = values.verify ? verifyChain(chain) : undefined;
    if (values.json) {
      const entries = chain.map(({ payload: _payload, ...entry }) => entry);
      out(
        JSON.stringify(
          verdict ? { planId, chain: entries, verification: verdict } : { planId, chain: entries },
          null,
          2,
        ),
      );
    } else {
      out(`Chain length: ${chain.length}`);
      for (const entry of chain)
        out(
          `  ${entry.seq}. [${entry.stype}] ${entry.sem_hash.slice(0, 23)}… (parent: ${entry.parent_hash ? `${entry.parent_hash.slice(0, 23)}…` : 'root'}) ${entry.qom_profile} ${entry.qom_passed ? 'passed' : 'failed'}`,
        );
      if (verdict) {
        out(
          verdict.valid ? `verified: ${verdict.length} entries, head ${verdict.head}` : 'BROKEN:',
        );
        for (const problem of verdict.problems) out(`  ${problem.message}`);
      }
    }
    return verdict && !verdict.valid ? 1 : 0;
  } finally {
    await store.close();
  }
}
