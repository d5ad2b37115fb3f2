#!/usr/bin/env node
// Where a command's CPU goes, by kind of process, on the whole machine (Linux: /proc).
//
//   node scripts/cpu-by-process.mjs [--every MS] -- COMMAND ARG…
//
// Runs COMMAND, reads every process's CPU time (user + system) every 100 ms until it exits,
// and prints the CPU-seconds each kind of process spent meanwhile, largest first: vitest's
// workers and main processes, each script started with tsx (by file), each built bin
// (by package), the services, the kernel's threads, everything else by command. It sees
// the whole machine, so other work shows up too, named. A process that starts and ends
// between two reads is not counted; every longer one is, from its first read on (the CPU
// it spent before that is counted too, in full). Exits with COMMAND's code.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The kernel's clock ticks per second, in which /proc/<pid>/stat counts CPU time. */
const TICKS_PER_SECOND = 100;

/**
 * The kind a process is counted under, from its command line (`\0`-separated in /proc;
 * spaces here). A kernel thread's is empty, and so is that of a process that has just
 * ended: both are named by `comm`.
 */
export function processKind(commandLine, comm = '', kernelThread = false) {
  const command = commandLine.trim();
  if (kernelThread) return `kernel: ${comm.replace(/[/:].*$/, '')}`;
  if (command === '') return `ended: ${comm}`;
  if (/vitest\/dist\/workers|vitest\/dist\/chunks\/.*(fork|thread)/.test(command))
    return 'vitest worker';
  if (/vitest(\.mjs)?( |$)|\.bin\/vitest/.test(command)) return 'vitest main';
  const tsxScript = /--import[= ](?:file:\/\/\S*)?tsx\S* (\S+)/.exec(command);
  if (tsxScript) return `tsx: ${tsxScript[1].replace(/^.*\/(?=[^/]+\/[^/]+\/[^/]+$)/, '')}`;
  const bin = /([\w.-]+)\/dist\/([\w.-]+)\.js\b/.exec(command);
  if (bin) return `bin: ${bin[1]}/dist/${bin[2]}.js`;
  if (/postgres/.test(command)) return 'PostgreSQL';
  if (/redis-server/.test(command)) return 'Redis';
  if (/chrom(e|ium)/.test(command)) return 'chromium';
  if (/esbuild/.test(command)) return 'esbuild';
  if (/turbo/.test(command)) return 'turbo';
  if (/beam\.smp.*rabbit/.test(command)) return 'RabbitMQ';
  const program = command.split(' ')[0].replace(/^.*\//, '');
  return `${program}: ${command.split(' ').slice(1, 3).join(' ')}`.trim();
}

/** pid:start time → CPU ticks last read, and ticks per kind. */
function reader() {
  const last = new Map();
  const byKind = new Map();
  return {
    byKind,
    read(self) {
      for (const pid of readdirSync('/proc')) {
        if (!/^\d+$/.test(pid) || Number(pid) === self) continue;
        let stat;
        let commandLine;
        try {
          stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        } catch {
          continue; // ended meanwhile
        }
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // Fields 14 and 15 of stat (utime, stime), and 22 (start time: pids are reused).
        const ticks = Number(fields[11]) + Number(fields[12]);
        const key = `${pid}:${fields[19]}`;
        const spent = ticks - (last.get(key) ?? 0);
        last.set(key, ticks);
        if (spent <= 0) continue;
        // Field 4 (the parent): the kernel's threads are kthreadd's (pid 2), or kthreadd.
        const kernelThread = fields[1] === '2' || pid === '2';
        const kind = processKind(commandLine, comm, kernelThread);
        byKind.set(kind, (byKind.get(kind) ?? 0) + spent);
      }
    },
  };
}

/**
 * The table: CPU-seconds and kind, largest first (at most `limit` kinds, none under a
 * twentieth of a second), the total last.
 */
export function cpuTable(byKind, limit = 40) {
  const rows = [...byKind].sort((a, b) => b[1] - a[1]);
  const shown = rows.filter(([, ticks]) => ticks >= TICKS_PER_SECOND / 20).length;
  limit = Math.min(limit, shown);
  const seconds = (ticks) => (ticks / TICKS_PER_SECOND).toFixed(1).padStart(8);
  const total = rows.reduce((sum, [, ticks]) => sum + ticks, 0);
  const lines = rows.slice(0, limit).map(([kind, ticks]) => `${seconds(ticks)}  ${kind}`);
  if (rows.length > limit) {
    const rest = rows.slice(limit).reduce((sum, [, ticks]) => sum + ticks, 0);
    lines.push(`${seconds(rest)}  (${rows.length - limit} more kinds)`);
  }
  lines.push(`${seconds(total)}  CPU-s on the whole machine`);
  return lines.join('\n');
}

async function main(argv) {
  const separator = argv.indexOf('--');
  const options = separator < 0 ? argv : argv.slice(0, separator);
  const command = separator < 0 ? [] : argv.slice(separator + 1);
  const every = options[0] === '--every' ? Number(options[1]) : 100;
  if (command.length === 0 || !(every > 0) || process.platform !== 'linux') {
    console.error('Usage (Linux): node scripts/cpu-by-process.mjs [--every MS] -- COMMAND ARG…');
    return 2;
  }
  const cpu = reader();
  cpu.read(process.pid);
  // What ran before the command is not its: count from here on.
  cpu.byKind.clear();
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  const timer = setInterval(() => cpu.read(process.pid), every);
  const code = await new Promise((resolve) => {
    child.on('error', (error) => {
      console.error(`cpu-by-process: ${command[0]}: ${error.message}`);
      resolve(127);
    });
    child.on('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  clearInterval(timer);
  cpu.read(process.pid);
  console.log(`\nCPU by process while \`${command.join(' ')}\` ran:\n${cpuTable(cpu.byKind)}`);
  return code;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
