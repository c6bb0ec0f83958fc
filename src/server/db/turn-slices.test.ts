import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { nameStatements } from "./pglite-named";
import { turnSlices, type TurnClock } from "./turn-slices";

/** A clock the test moves, and the event loop's next turn as a list the test runs. */
function fakeLoop() {
  let t = 0;
  let pending: (() => void)[] = [];
  const clock: TurnClock = { now: () => t, later: (fn) => pending.push(fn) };
  return {
    clock,
    advance: (ms: number) => (t += ms),
    nextTurn: () => {
      const run = pending;
      pending = [];
      for (const fn of run) fn();
    },
    pendingCount: () => pending.length,
  };
}

describe("turn slices (decision 434)", () => {
  it("lets statements run on until the slice is used, then waits for the event loop's turn", async () => {
    const loop = fakeLoop();
    const turn = turnSlices(20, loop.clock);
    expect(turn()).toBeUndefined();
    loop.advance(19);
    expect(turn()).toBeUndefined();
    loop.advance(1);
    const wait = turn();
    expect(wait).toBeInstanceOf(Promise);
    let resumed = false;
    void wait!.then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    loop.nextTurn();
    await wait;
    expect(resumed).toBe(true);
    // The turn ended the slice: the next statement starts a new one and goes on at once.
    loop.advance(100);
    expect(turn()).toBeUndefined();
    loop.advance(5);
    expect(turn()).toBeUndefined();
  });

  it("never waits when slicing is off", () => {
    const loop = fakeLoop();
    const turn = turnSlices(0, loop.clock);
    for (let i = 0; i < 10; i++) {
      expect(turn()).toBeUndefined();
      loop.advance(50);
    }
    expect(loop.pendingCount()).toBe(0);
  });
});

describe("the embedded database's queue under load", () => {
  const clients: PGlite[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  /** When a callback queued behind the I/O now pending ran: how many of 40 queued statements had finished. */
  async function finishedBeforeTheEventLoopTurned(sliceMs: number): Promise<number> {
    const client = await PGlite.create();
    clients.push(client);
    await nameStatements(client, { sliceMs });
    const work = "select count(*)::int as n from generate_series(1, $1::int)";
    await client.query(work, [10]);
    let finished = 0;
    let atTurn = -1;
    const all = Array.from({ length: 40 }, () =>
      client.query(work, [200_000]).then(() => finished++),
    );
    setImmediate(() => (atTurn = finished));
    await Promise.all(all);
    await new Promise((r) => setImmediate(r));
    return atTurn;
  }

  it("serves a request that arrived meanwhile before the rest of a long queue", async () => {
    // Without slices the whole queue runs in one microtask drain; with them the event loop turns
    // (and reads new requests) after about 20 ms of statements.
    expect(await finishedBeforeTheEventLoopTurned(0)).toBe(40);
    expect(await finishedBeforeTheEventLoopTurned(20)).toBeLessThan(40);
  });
});
