// The memory monitor: thresholds, hysteresis, peaks, and a timer that never holds the process.
import { describe, expect, test } from "bun:test";
import { startMemoryMonitor, type MemoryReading, type MemorySample } from "../../src/memory/monitor.ts";

const MB = 1024 * 1024;
const config = { checkIntervalMs: 60_000, warnMb: 100, criticalMb: 200 };

function scripted() {
  let next: MemorySample = { heapBytes: 10 * MB, rssBytes: 20 * MB };
  return {
    set: (rssMb: number, heapMb = rssMb / 2) => (next = { heapBytes: heapMb * MB, rssBytes: rssMb * MB }),
    sample: () => next,
  };
}

describe("memory monitor", () => {
  test("warns once past warnMb, acts past criticalMb, and tracks peaks and actions", () => {
    const s = scripted();
    const warns: string[] = [];
    const criticals: MemoryReading[] = [];
    const monitor = startMemoryMonitor({
      config,
      onWarn: (m) => warns.push(m),
      onCritical: (i) => criticals.push(i),
      sample: s.sample,
    });
    try {
      expect(monitor.check().level).toBe("ok");
      s.set(120);
      expect(monitor.check().level).toBe("warn");
      s.set(130);
      monitor.check();
      expect(warns).toHaveLength(1);
      expect(warns[0]).toContain("RSS 120 MB");
      s.set(250, 150);
      const reading = monitor.check();
      expect(reading.level).toBe("critical");
      expect(criticals).toEqual([{ heapMb: 150, rssMb: 250, peakHeapMb: 150, peakRssMb: 250, level: "critical" }]);
      // Still critical at the same level after the runner acted: no storm of requests.
      s.set(260);
      monitor.check();
      expect(criticals).toHaveLength(1);
      // Grew a lot more despite the action: ask again.
      s.set(400);
      monitor.check();
      expect(criticals).toHaveLength(2);
      // Falls back well below both lines: re-armed.
      s.set(50);
      monitor.check();
      s.set(110);
      monitor.check();
      expect(warns).toHaveLength(2);
      expect(monitor.stats()).toEqual({ peakHeapMb: 200, peakRssMb: 400, actions: 4 });
    } finally {
      monitor.stop();
    }
  });

  test("the timer samples on its own with tiny thresholds and stops when told", async () => {
    let samples = 0;
    const warned = Promise.withResolvers<string>();
    const critical = Promise.withResolvers<MemoryReading>();
    const monitor = startMemoryMonitor({
      config: { checkIntervalMs: 5, warnMb: 1, criticalMb: 100_000 },
      onWarn: warned.resolve,
      onCritical: critical.resolve,
      sample: () => {
        samples++;
        return { heapBytes: process.memoryUsage().heapUsed, rssBytes: process.memoryUsage().rss };
      },
    });
    expect(await warned.promise).toMatch(/memory use is high/);
    monitor.stop();
    const after = samples;
    // A second monitor on the same interval measures the time: once it has sampled several
    // times, a stopped timer that still ran would have sampled too.
    let ticks = 0;
    const ticked = Promise.withResolvers<void>();
    const clock = startMemoryMonitor({
      config: { checkIntervalMs: 5, warnMb: 100_000, criticalMb: 100_000 },
      onWarn: () => {},
      onCritical: () => {},
      sample: () => {
        if (++ticks === 6) ticked.resolve();
        return { heapBytes: 0, rssBytes: 0 };
      },
    });
    await ticked.promise;
    clock.stop();
    expect(samples).toBe(after);

    // Real numbers (no scripted sample), thresholds below anything a process uses.
    const real = startMemoryMonitor({
      config: { checkIntervalMs: 5, warnMb: 1, criticalMb: 2 },
      onWarn: () => {},
      onCritical: critical.resolve,
    });
    const info = await critical.promise;
    real.stop();
    expect(info.level).toBe("critical");
    expect(info.rssMb).toBeGreaterThan(2);
    expect(info.heapMb).toBeGreaterThan(0);
    expect(real.stats().actions).toBeGreaterThanOrEqual(1);
    expect(real.stats().peakRssMb).toBeGreaterThanOrEqual(info.rssMb);
  });

  test("the timer does not keep the process alive", async () => {
    const script = `
      import { startMemoryMonitor } from ${JSON.stringify(new URL("../../src/memory/monitor.ts", import.meta.url).pathname)};
      startMemoryMonitor({ config: { checkIntervalMs: 10, warnMb: 1e6, criticalMb: 2e6 }, onWarn() {}, onCritical() {} });
      console.log("started");
    `;
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    const timeout = setTimeout(() => proc.kill("SIGKILL"), 10_000);
    expect(await proc.exited).toBe(0);
    clearTimeout(timeout);
    expect(await new Response(proc.stdout).text()).toBe("started\n");
  });
});
