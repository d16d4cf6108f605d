// The memory monitor: samples heap and RSS on an interval and reports a level — a warning past
// `warnMb`, a critical reading past `criticalMb` — once per crossing. It only measures: what to
// free is the session's reaction (context/memory-pressure.ts).

import type { MemoryConfig } from "../config/config.ts";

export interface MemorySample {
  heapBytes: number;
  rssBytes: number;
}

export type MemoryLevel = "ok" | "warn" | "critical";

export interface MemoryReading {
  heapMb: number;
  rssMb: number;
  peakHeapMb: number;
  peakRssMb: number;
  level: MemoryLevel;
}

export interface MemoryMonitorStats {
  peakHeapMb: number;
  peakRssMb: number;
  /** Warnings given plus critical actions requested. */
  actions: number;
}

export interface MemoryMonitorOptions {
  config: MemoryConfig;
  onWarn: (message: string) => void;
  onCritical: (info: MemoryReading) => void;
  /** Where numbers come from (tests script them); defaults to process.memoryUsage(). */
  sample?: () => MemorySample;
}

export interface MemoryMonitor {
  /** Takes a sample now and acts on it, as the timer does. */
  check(): MemoryReading;
  stop(): void;
  stats(): MemoryMonitorStats;
}

// Once fired, a level re-arms only after use falls this far below its threshold, so a value
// hovering at the line does not warn on every tick.
const REARM_RATIO = 0.9;
// Still critical after the runner acted: ask again only if use grew by this much since.
const CRITICAL_REGROWTH = 1.25;
const MB = 1024 * 1024;

// process.memoryUsage() costs microseconds; bun:jsc heapStats() walks the heap (~17 ms measured
// here with 200k objects), too much for a periodic probe. Its heapUsed is the same JSC heap size.
function defaultSample(): MemorySample {
  const usage = process.memoryUsage();
  return { heapBytes: usage.heapUsed, rssBytes: usage.rss };
}

const round = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

export function startMemoryMonitor(options: MemoryMonitorOptions): MemoryMonitor {
  const { config, onWarn, onCritical } = options;
  const sample = options.sample ?? defaultSample;
  let peakHeap = 0;
  let peakRss = 0;
  let actions = 0;
  let warnArmed = true;
  let criticalArmed = true;
  let lastCriticalMb = 0;

  function check(): MemoryReading {
    const { heapBytes, rssBytes } = sample();
    peakHeap = Math.max(peakHeap, heapBytes);
    peakRss = Math.max(peakRss, rssBytes);
    const reading: MemoryReading = {
      heapMb: round(heapBytes),
      rssMb: round(rssBytes),
      peakHeapMb: round(peakHeap),
      peakRssMb: round(peakRss),
      level: "ok",
    };
    // RSS is what the system (and an OOM killer) sees, workers' heaps included; heap is the fallback
    // where RSS is not reported.
    const used = Math.max(reading.rssMb, reading.heapMb);
    if (used < config.warnMb * REARM_RATIO) warnArmed = true;
    if (used < config.criticalMb * REARM_RATIO) criticalArmed = true;

    if (used >= config.criticalMb) {
      reading.level = "critical";
      warnArmed = false;
      if (criticalArmed || used >= lastCriticalMb * CRITICAL_REGROWTH) {
        criticalArmed = false;
        lastCriticalMb = used;
        actions++;
        onCritical(reading);
      }
    } else if (used >= config.warnMb) {
      reading.level = "warn";
      if (warnArmed) {
        warnArmed = false;
        actions++;
        onWarn(
          `memory use is high: heap ${reading.heapMb} MB, RSS ${reading.rssMb} MB ` +
            `(warning at ${config.warnMb} MB, critical at ${config.criticalMb} MB)`,
        );
      }
    }
    return reading;
  }

  const timer = setInterval(() => {
    try {
      check();
    } catch {
      // A failing callback must not stop the probe; the next tick tries again.
    }
  }, config.checkIntervalMs);
  // The probe never keeps the process alive on its own.
  timer.unref();

  return {
    check,
    stop: () => clearInterval(timer),
    stats: () => ({ peakHeapMb: round(peakHeap), peakRssMb: round(peakRss), actions }),
  };
}
