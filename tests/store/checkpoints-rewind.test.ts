// Conversation rewinds as archive records: applied by every reader (the window, resume, readAll),
// surviving a reopen, and never hiding what follows a record that names no earlier message.
import { afterAll, describe, expect, test } from "bun:test";
import type { Message } from "../../src/protocol/message.ts";
import { applyRewinds, rewindRecord } from "../../src/store/rewind-record.ts";
import { openSession } from "../../src/store/session.ts";
import { msg, range, readAllIds, removeTempHomes, storeConfig, tempHome } from "./helpers.ts";

afterAll(removeTempHomes);

const quiet = () => {};
const ids = (ms: readonly Message[]) => ms.map((m) => m.id);
const record = (to: string, id: string): Message => ({ ...rewindRecord(to), id });

describe("applyRewinds", () => {
  const cases: Array<{ name: string; input: Message[]; kept: string[] }> = [
    { name: "no record", input: [msg(0), msg(1)], kept: ["m0", "m1"] },
    { name: "back to before m2", input: [msg(0), msg(1), msg(2), msg(3), record("m2", "r")], kept: ["m0", "m1"] },
    {
      name: "then on, and back again",
      input: [msg(0), msg(1), record("m0", "r1"), msg(4), msg(5), record("m4", "r2"), msg(6)],
      kept: ["m6"],
    },
    {
      name: "target before the window: all before it",
      input: [msg(5), msg(6), record("m1", "r"), msg(7)],
      kept: ["m7"],
    },
    {
      name: "a damaged record is dropped, nothing else",
      input: [msg(0), { ...msg(1), rewind: { to: 3 } } as unknown as Message, msg(2)],
      kept: ["m0", "m2"],
    },
  ];
  for (const c of cases)
    test(c.name, () => {
      expect(ids(applyRewinds(c.input, (m) => m))).toEqual(c.kept);
    });
});

describe("a rewound session", () => {
  test("the window, the archive and a resumed session all leave the rewound turns out", async () => {
    const home = tempHome();
    const opened = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
    const store = opened.store;
    for (const i of range(0, 6)) store.append(msg(i));
    store.rewind("m2");
    expect(ids(store.window())).toEqual(["m0", "m1"]);
    store.append(msg(10));
    expect(await readAllIds(store)).toEqual(["m0", "m1", "m10"]);
    await store.close();

    const again = await openSession({
      home,
      cwd: "/p",
      model: "m",
      config: storeConfig(),
      resume: { latest: true },
      onWarning: quiet,
    });
    expect(ids(again.store.window())).toEqual(["m0", "m1", "m10"]);
    expect(await readAllIds(again.store)).toEqual(["m0", "m1", "m10"]);
    await again.store.close();
  });

  test("a record that names a later message hides nothing (a hand-edited archive)", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
    store.append(msg(0));
    store.append(record("m2", "r0"));
    store.append(msg(1));
    store.append(msg(2));
    store.append(msg(3));
    expect(await readAllIds(store)).toEqual(["m0", "m1", "m2", "m3"]);
    await store.close();
  });

  test("rewinding to the first prompt clears the title, and the next prompt gives one", async () => {
    const home = tempHome();
    const { store } = await openSession({ home, cwd: "/p", model: "m", config: storeConfig(), onWarning: quiet });
    store.append(msg(0, "first prompt", "user"));
    store.append(msg(1, "answer", "assistant"));
    store.rewind("m0", "");
    store.append(msg(2, "second try", "user"));
    await store.flush();
    expect(store.meta().title).toBe("second try");
    await store.close();
  });
});
