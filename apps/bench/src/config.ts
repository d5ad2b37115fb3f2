/** The sizes and repetitions of one run. */
export interface BenchConfig {
  mode: 'full' | 'quick';
  scheduling: { sizes: number[]; repetitions: number };
  overhead: {
    independentCalls: number;
    chainLength: number;
    derivationLengths: number[];
    repetitions: number;
  };
  /** Rows 3 and 4: `timeScale` multiplies every scripted delay (1 in a full run). */
  agents: { timeScale: number; repetitions: number };
  proxy: { durationSeconds: number; connections: number; repetitions: number };
  hashing: { sampleMs: number; repetitions: number };
  /**
   * Row 7: the DAG size, the worker process counts, calls each process runs at once, the hop
   * chain; the I/O-like DAG (latencies spread over `slowLatencyMs`) and its repetitions.
   */
  remote: {
    size: number;
    workerCounts: number[];
    concurrency: number;
    chainLength: number;
    repetitions: number;
    slowLatencyMs: [number, number];
    slowRepetitions: number;
  };
}

/** What `pnpm bench` measures: the sizes the issue names, 5 or more repetitions each. */
export const fullConfig: BenchConfig = {
  mode: 'full',
  scheduling: { sizes: [50, 500], repetitions: 5 },
  overhead: {
    independentCalls: 10_000,
    chainLength: 2_000,
    derivationLengths: [1_000, 2_000, 4_000],
    repetitions: 7,
  },
  agents: { timeScale: 1, repetitions: 5 },
  // Row 5 has 11 timed lines (5 repetitions each): 6 s a run keeps it near 7 minutes.
  proxy: { durationSeconds: 6, connections: 10, repetitions: 5 },
  hashing: { sampleMs: 250, repetitions: 7 },
  remote: {
    size: 500,
    workerCounts: [1, 4, 10],
    concurrency: 16,
    chainLength: 200,
    // Nine rounds: at 10 worker processes on 2 cores a round's MTPX ÷ bare swings ±30 %,
    // and five left the median at the mercy of one round (the fast part takes ~45 s).
    repetitions: 9,
    slowLatencyMs: [50, 500],
    slowRepetitions: 3,
  },
};

/**
 * `pnpm bench --quick`: tiny sizes, a twentieth of the scripted delays and two repetitions
 * (the fewest a median with a spread and paired ratios take), so CI proves in a few
 * seconds of each row that every row runs. Its numbers mean nothing.
 */
export const quickConfig: BenchConfig = {
  mode: 'quick',
  scheduling: { sizes: [8, 16], repetitions: 2 },
  overhead: {
    independentCalls: 200,
    chainLength: 100,
    derivationLengths: [100, 200, 400],
    repetitions: 2,
  },
  agents: { timeScale: 0.05, repetitions: 2 },
  proxy: { durationSeconds: 0.1, connections: 4, repetitions: 2 },
  hashing: { sampleMs: 10, repetitions: 2 },
  remote: {
    size: 16,
    workerCounts: [1, 2],
    concurrency: 4,
    chainLength: 10,
    repetitions: 2,
    slowLatencyMs: [5, 50],
    slowRepetitions: 2,
  },
};
