// `synapse --image <file>` on a terminal with no prompt opens the interactive session: the image
// goes with the first message typed there, not dropped. Compiled binary in tmux, strict fake.

import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeLLM } from "../support/fake-llm.ts";
import { tempHome } from "../support/binary.ts";
import { hasTmux, tmuxServer } from "../support/tmux-term.ts";

const server = tmuxServer();
afterAll(() => server.stop());

describe.skipIf(!hasTmux)("--image in the interactive session", () => {
  test("the image is announced and sent with the first prompt, and only with it", async () => {
    const fake = await startFakeLLM([{ text: "a tiny picture" }, { text: "second" }]);
    const home = tempHome();
    const png = new Uint8Array(256);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    writeFileSync(join(home.dir, "shot.png"), png);
    const t = await server.open(fake.url, { home, args: ["--image", "shot.png"] });
    try {
      await t.until((s) => s.includes("shot.png") && s.includes("first message"), "the notice");
      t.type("what is this");
      t.keys("Enter");
      await t.until((s) => s.includes("a tiny picture"), "the answer");
      t.type("and now");
      t.keys("Enter");
      await t.until((s) => s.includes("second"), "the second answer");
      const posts = fake.requests.filter((r) => r.path === "/v1/messages");
      const types = (m: any) => m.content.map((b: any) => b.type);
      expect(types(posts[0]!.body.messages[0])).toEqual(["text", "image"]);
      expect(types(posts[1]!.body.messages.at(-1))).toEqual(["text"]);
    } finally {
      t.close();
      await fake.stop();
    }
  }, 40_000);
});
