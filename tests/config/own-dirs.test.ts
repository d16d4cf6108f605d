// The one list of synapse's own folders that the policy protects and the sandbox hides.

import { expect, test } from "bun:test";
import { ownDirs } from "../../src/config/own-dirs.ts";

test.each([
  [{}, ["/h/.config/synapse", "/h/.local/share/synapse", "/h/.cache/synapse"]],
  [
    { home: "/data/syn", configDir: "/xdg/cfg/synapse", cacheDir: "/xdg/cache/synapse" },
    [
      "/h/.config/synapse",
      "/h/.local/share/synapse",
      "/h/.cache/synapse",
      "/data/syn",
      "/xdg/cfg/synapse",
      "/xdg/cache/synapse",
    ],
  ],
  [
    { home: "/h/.local/share/synapse/", cacheDir: "/h/x/../.cache/synapse" },
    ["/h/.config/synapse", "/h/.local/share/synapse", "/h/.cache/synapse"],
  ],
])("%p", (config, expected) => {
  expect(ownDirs(config, "/h")).toEqual(expected);
});
