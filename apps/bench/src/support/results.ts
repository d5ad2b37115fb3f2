import { cpus, platform, release, totalmem } from 'node:os';
import type { Stat } from './stats';

/** A ratio of one variant to another, measured in the same repetitions. */
export interface Ratio {
  /** What the ratio divides by, in words (`Promise.all`, `MTPX`, `critical path`). */
  to: string;
  value: Stat;
}

/** One line of the table: one variant of one benchmark. */
export interface ResultLine {
  /** The benchmark (`50 calls`, `10,000 independent no-ops`). */
  benchmark: string;
  /** What was measured (`eager (ours)`, `Vercel AI SDK`). */
  variant: string;
  /** The headline value, over the repetitions. */
  value: Stat;
  /** Its unit (`× critical path`, `µs/call`, `ms`, `req/s`). */
  unit: string;
  /** The variant's ratio to the row's baseline, when the row has one. */
  ratio?: Ratio;
  /** Further numbers (model calls, tokens sent, lower bound, latency percentiles). */
  details?: Record<string, number>;
  /** A short remark for the table: a target, a reference figure, a lower bound. */
  note?: string;
}

/** One of the six rows of the issue. */
export interface RowResult {
  row: number;
  title: string;
  /** What the row measures, in one sentence. */
  measures: string;
  /** Repetitions measured per variant. */
  repetitions: number;
  lines: ResultLine[];
}

/** The machine a run was measured on. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  node: string;
  platform: string;
  totalMemoryGiB: number;
}

/** Everything a run writes to `results.json`. */
export interface BenchResults {
  /** Bumped when the shape changes. */
  format: 1;
  mode: 'full' | 'quick';
  startedAt: string;
  durationSeconds: number;
  machine: MachineInfo;
  rows: RowResult[];
}

/** This machine, as `results.json` records it. */
export function machineInfo(): MachineInfo {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    node: process.version,
    platform: `${platform()} ${release()}`,
    totalMemoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}
