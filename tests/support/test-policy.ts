// A default-mode permission policy for a test's workspace and home, as the binary builds it.

import { join } from "node:path";
import { buildPolicy, type PermissionPolicy } from "../../src/policy/policy.ts";

export function workspacePolicy(opts: {
  ws: string;
  home: string;
  sandboxed: boolean;
  allow?: string[];
}): PermissionPolicy {
  const { ws, home } = opts;
  return buildPolicy(
    {
      cwd: ws,
      permissionMode: "default",
      permissions: { allow: opts.allow ?? [], deny: [] },
      addDirs: [],
      secrets: [],
      home: join(home, "data"),
      configDir: join(home, "config"),
      shell: { env: { PATH: "/usr/bin:/bin" } },
    },
    { home, sandboxed: opts.sandboxed },
  );
}
