// Read reads the file it opened, judged by its real path: a command left running can turn a file
// the policy allowed into a link to `~/.ssh/id_rsa` between the check and the open. Here the swap
// has happened by the time a tool opens it (the state a lost race leaves), deterministically; the
// same for a folder Write or Edit writes in.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionPolicy } from "../../src/policy/policy.ts";
import { workspacePolicy } from "../support/test-policy.ts";
import { editTool } from "../../src/tools/edit.ts";
import { globTool } from "../../src/tools/glob.ts";
import { grepTool } from "../../src/tools/grep.ts";
import { readTool } from "../../src/tools/read.ts";
import { writeTool } from "../../src/tools/write.ts";
import { makeContext, tempDir, text, toolError } from "./tool-context.ts";

let dir: string;
let ws: string;
let home: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  dir = realpathSync(dir);
  ws = join(dir, "ws");
  home = join(dir, "home");
  mkdirSync(ws);
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), "CANARY-KEY\n");
  writeFileSync(join(ws, "notes.txt"), "plain\n");
});
afterEach(() => cleanup());

function policy(allow: string[] = []): PermissionPolicy {
  return workspacePolicy({ ws, home, sandboxed: true, allow });
}

const read = (path: string, p: PermissionPolicy, allowedByPolicy: boolean) =>
  readTool.execute({ path } as never, { ...makeContext(ws, { services: { permissions: p } }), allowedByPolicy });

/** A Write of `written` and an Edit creating `created`, both refused as changed after the check. */
async function bothRefused(written: string, created: string, ctx: ReturnType<typeof makeContext>) {
  const write = writeTool.execute({ path: written, content: "pwned\n" } as never, ctx);
  expect(await toolError(write)).toContain("changed after the permission check");
  const create = editTool.execute({ path: created, old_string: "", new_string: "pwned\n" } as never, ctx);
  expect(await toolError(create)).toContain("changed after the permission check");
}

// Linux only: elsewhere there is no /proc/self/fd to judge an open file by (README, Safety).
describe.skipIf(process.platform !== "linux")("Read after the permission check", () => {
  test("a file swapped for a link to a protected file after an unasked check is not read", async () => {
    symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "x"));
    const message = await toolError(read("x", policy(), true));
    expect(message).toContain("changed after the permission check");
    expect(message).not.toContain("CANARY-KEY");
  });

  test("a folder swapped for a link out of the workspace: the same", async () => {
    symlinkSync(join(home, ".ssh"), join(ws, "d"));
    expect(await toolError(read("d/id_rsa", policy(), true))).toContain("changed after the permission check");
  });

  test("what someone approved is read, as is what the policy allows by a rule naming the link", async () => {
    symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "x"));
    expect(text(await read("x", policy(), false))).toContain("CANARY-KEY");
    expect(text(await read("x", policy(["Read(x)"]), true))).toContain("CANARY-KEY");
  });

  test("Edit reads the file it opened too: no old_string oracle on the swapped-in key", async () => {
    symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "x"));
    const ctx = { ...makeContext(ws, { services: { permissions: policy() } }), allowedByPolicy: true };
    const edit = editTool.execute({ path: "x", old_string: "CANARY", new_string: "y" } as never, ctx);
    expect(await toolError(edit)).toContain("changed after the permission check");
  });

  test("Grep and Glob search the file or folder they opened", async () => {
    symlinkSync(join(home, ".ssh", "id_rsa"), join(ws, "x"));
    const ctx = { ...makeContext(ws, { services: { permissions: policy() } }), allowedByPolicy: true };
    const grep = grepTool.execute({ pattern: "CANARY", path: "x", output_mode: "content" } as never, ctx);
    expect(await toolError(grep)).toContain("changed after the permission check");
    symlinkSync(join(home, ".ssh"), join(ws, "d"));
    const folder = grepTool.execute({ pattern: "CANARY", path: "d", output_mode: "content" } as never, ctx);
    expect(await toolError(folder)).toContain("changed after the permission check");
    // Glob lists the folder it opened too: no names from ~/.ssh.
    expect(await toolError(globTool.execute({ pattern: "d/*" } as never, ctx))).toContain("changed after");
    expect(text(await globTool.execute({ pattern: "*" } as never, ctx))).toContain(join(ws, "notes.txt"));
    writeFileSync(join(ws, "y"), "CANARY-PLAIN\n");
    const plain = await grepTool.execute({ pattern: "CANARY", path: "y", output_mode: "content" } as never, ctx);
    expect(text(plain)).toBe(`${join(ws, "y")}:1:CANARY-PLAIN`);
  });

  test("Write and Edit write in the folder they opened: a folder swapped for a link out is refused", async () => {
    writeFileSync(join(home, ".bashrc"), "# rc\n");
    symlinkSync(home, join(ws, "d"));
    const ctx = { ...makeContext(ws, { services: { permissions: policy() } }), allowedByPolicy: true };
    await bothRefused("d/.bashrc", "d/.profile", ctx);
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# rc\n");
    // A link to a folder inside the workspace is written through as before.
    mkdirSync(join(ws, "sub"));
    symlinkSync(join(ws, "sub"), join(ws, "alias"));
    await writeTool.execute({ path: "alias/f.txt", content: "ok\n" } as never, ctx);
    expect(readFileSync(join(ws, "sub", "f.txt"), "utf8")).toBe("ok\n");
  });

  test("Write and Edit make no folder out of the workspace through a folder swapped for a link", async () => {
    symlinkSync(home, join(ws, "d"));
    const ctx = { ...makeContext(ws, { services: { permissions: policy() } }), allowedByPolicy: true };
    await bothRefused("d/.config/autostart/x.desktop", "d/.bashrc/x", ctx);
    expect(existsSync(join(home, ".config"))).toBe(false);
    expect(existsSync(join(home, ".bashrc"))).toBe(false);
    // New folders in the workspace, through a link that stays in it, are made as before.
    mkdirSync(join(ws, "sub"));
    symlinkSync(join(ws, "sub"), join(ws, "alias"));
    await writeTool.execute({ path: "alias/new/deeper/f.txt", content: "ok\n" } as never, ctx);
    expect(readFileSync(join(ws, "sub", "new", "deeper", "f.txt"), "utf8")).toBe("ok\n");
    await editTool.execute({ path: "fresh/g.txt", old_string: "", new_string: "ok\n" } as never, ctx);
    expect(readFileSync(join(ws, "fresh", "g.txt"), "utf8")).toBe("ok\n");
  });

  test("what someone approved is written through the link, its new folders where the link leads", async () => {
    symlinkSync(home, join(ws, "made"));
    const ctx = { ...makeContext(ws, { services: { permissions: policy() } }), allowedByPolicy: false };
    const write = writeTool.execute({ path: "made/inner/f.txt", content: "x\n" } as never, ctx);
    // Approved (not allowed by the policy alone): written through the link as the user saw it.
    expect(text(await write)).toContain("Created");
    expect(readFileSync(join(home, "inner", "f.txt"), "utf8")).toBe("x\n");
  });

  test("links inside the workspace still read as before", async () => {
    symlinkSync(join(ws, "notes.txt"), join(ws, "link.txt"));
    expect(text(await read("link.txt", policy(), true))).toBe("     1\tplain");
  });
});
