import { readdirSync, readFileSync } from 'node:fs';

const MiB = 1024 * 1024;

/** A line of /proc/<pid>/status in bytes (VmRSS, VmHWM, ...), or 0 once the process is gone. Linux only. */
export function processStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process started by `pid`, and theirs, from /proc/<pid>/task/<tid>/children. */
export function descendantsOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

export interface MemoryPeaks {
  /** Highest resident memory of the given processes alone, summed at one sample. */
  ownMiB: number;
  /** Highest resident memory of the given processes and every process they started, summed at one sample. */
  treeMiB: number;
  /** Highest resident memory of any one process they started. */
  childMiB: number;
  /** Processes they started, seen at any sample. */
  childrenSeen: number;
  samples: number;
}

/**
 * Samples the resident memory (VmRSS) of some processes and of their descendants every `intervalMs`
 * until `stop()`, which returns the peaks in MiB. Reads /proc: Linux only.
 */
export function sampleMemory(pids: number[], intervalMs = 10): { stop(): MemoryPeaks } {
  const peaks: MemoryPeaks = { ownMiB: 0, treeMiB: 0, childMiB: 0, childrenSeen: 0, samples: 0 };
  const seen = new Set<number>();
  const sample = (): void => {
    const own = pids.reduce((sum, pid) => sum + processStatus(pid, 'VmRSS'), 0);
    const children = pids.flatMap(descendantsOf);
    const childRss = children.map((pid) => processStatus(pid, 'VmRSS'));
    children.forEach((pid) => seen.add(pid));
    peaks.ownMiB = Math.max(peaks.ownMiB, own / MiB);
    peaks.treeMiB = Math.max(peaks.treeMiB, (own + childRss.reduce((a, b) => a + b, 0)) / MiB);
    peaks.childMiB = Math.max(peaks.childMiB, ...childRss.map((rss) => rss / MiB));
    peaks.samples += 1;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      peaks.childrenSeen = seen.size;
      return { ...peaks, ownMiB: Math.round(peaks.ownMiB), treeMiB: Math.round(peaks.treeMiB), childMiB: Math.round(peaks.childMiB) };
    },
  };
}
