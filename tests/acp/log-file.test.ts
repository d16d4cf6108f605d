// The ACP log file: private, bounded (one older file kept), and never a reason to fail.

import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOG_MAX_BYTES, acpLogPath, createLog } from "../../src/acp/log-file.ts";

test("lines go to stderr and to a private file that moves aside once past the limit", () => {
  const home = mkdtempSync(join(tmpdir(), "acp-log-"));
  const stderr: string[] = [];
  const log = createLog(home, (t) => stderr.push(t));
  log("first");
  expect(stderr).toEqual(["synapse acp: first\n"]);
  const path = acpLogPath(home);
  expect(readFileSync(path, "utf8")).toMatch(/^\S+Z synapse acp: first\n$/);
  expect(statSync(path).mode & 0o077).toBe(0);
  writeFileSync(path, "x".repeat(LOG_MAX_BYTES + 1));
  log("after the limit");
  expect(readFileSync(`${path}.1`, "utf8").length).toBe(LOG_MAX_BYTES + 1);
  expect(readFileSync(path, "utf8")).toContain("after the limit");
  expect(statSync(path).size).toBeLessThan(200);
});

test("a home where no log can be written costs nothing but the file", () => {
  const home = mkdtempSync(join(tmpdir(), "acp-log-"));
  writeFileSync(join(home, "logs"), "a file where the folder should be");
  const stderr: string[] = [];
  const log = createLog(home, (t) => stderr.push(t));
  expect(() => log("still told")).not.toThrow();
  expect(stderr).toEqual(["synapse acp: still told\n"]);
  expect(existsSync(acpLogPath(home))).toBe(false);
});
