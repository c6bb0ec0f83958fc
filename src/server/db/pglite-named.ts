/**
 * Named statements on the embedded database (issue 35 item 1, docs/decisions/401-pglite-named-statements.md).
 *
 * PGlite's `query` parses and plans every statement again (an unnamed statement, then Bind, Execute,
 * Sync). Profiled in the study loop, the due page's statement spent about 12 ms planning for 0.5 ms of
 * execution, in WebAssembly on V8's baseline compiler (decision 210). PostgreSQL keeps a named
 * statement's plan per connection; PGlite has one connection, so its statements are named here once
 * and kept, as postgres.js does with `prepare: true`, and later calls only Bind and Execute.
 *
 * Only calls on the client itself go through this (a transaction's queries are PGlite's own), under
 * the same two locks `query` takes, so a statement never runs inside another caller's transaction.
 * Results are read by PGlite's own parser with the caller's options (drizzle's row mode and parsers).
 */
import type { PGlite, QueryOptions, Results } from "@electric-sql/pglite";
import { turnSlices, TURN_SLICE_MS, type TurnClock } from "./turn-slices";

/** Statements kept at most; the least recently used one is closed beyond it. */
const MAX_NAMED = 256;

type BackendMessage = { name: string; dataTypeIDs?: number[] };

interface PGliteInternals {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolStream(message: Uint8Array, opts: { syncToFs: boolean }): Promise<BackendMessage[]>;
  syncToFs(): Promise<void>;
  serializers: Record<number | string, (v: unknown) => string>;
  parsers: Record<number | string, unknown>;
}

/**
 * Makes `client.query` keep a named statement per query text, its turns taken in the order requests
 * arrived (turn-slices.ts). Answers a function that puts the original back (tests).
 */
export async function nameStatements(
  client: PGlite,
  turns: { sliceMs?: number; clock?: TurnClock } = {},
): Promise<() => void> {
  const { protocol, parse } = await import("@electric-sql/pglite");
  const { serialize } = protocol;
  const pg = client as unknown as PGliteInternals;
  const original = client.query.bind(client);
  /** Query text → its statement's name and parameter types; Map order is recency. */
  const named = new Map<string, { name: string; types: number[] }>();
  let counter = 0;
  const step = (message: Uint8Array) => pg.execProtocolStream(message, { syncToFs: false });

  async function statementFor(text: string, paramTypes?: number[]) {
    const kept = named.get(text);
    if (kept) {
      named.delete(text);
      named.set(text, kept);
      return kept;
    }
    const name = `prite_s${++counter}`;
    let described: BackendMessage[] = [];
    try {
      await step(serialize.parse({ name, text, types: paramTypes }));
      described = await step(serialize.describe({ type: "S", name }));
    } finally {
      await step(serialize.sync());
    }
    const types = described.find((m) => m.name === "parameterDescription")?.dataTypeIDs ?? [];
    const entry = { name, types };
    named.set(text, entry);
    if (named.size > MAX_NAMED) {
      const [oldText, oldest] = named.entries().next().value as [string, { name: string }];
      named.delete(oldText);
      try {
        await step(serialize.close({ type: "S", name: oldest.name }));
      } finally {
        await step(serialize.sync());
      }
    }
    return entry;
  }

  /** Answered when a kept statement no longer fits its tables: the call is made again unnamed. */
  const STALE = Symbol("stale statement");

  async function namedQuery<T>(text: string, params: unknown[], options?: QueryOptions) {
    const result = await namedOnce<T>(text, params, options);
    // Outside the locks, which `query` takes again. A plan is refused before anything ran.
    return result === STALE ? original<T>(text, params, options) : result;
  }

  const turn = turnSlices(turns.sliceMs ?? TURN_SLICE_MS, turns.clock);

  async function namedOnce<T>(text: string, params: unknown[], options?: QueryOptions) {
    return pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        const wait = turn();
        if (wait) await wait;
        const statement = await statementFor(text, options?.paramTypes);
        const values = params.map((value, i) => {
          if (value == null) return null;
          const type = statement.types[i]!;
          const serializer = options?.serializers?.[type] ?? pg.serializers[type];
          return serializer ? serializer(value) : String(value as string);
        });
        let messages: BackendMessage[];
        // Bind, Describe, Execute and Sync in one call: PGlite runs every message of a buffer in turn.
        try {
          messages = await step(
            Buffer.concat([
              serialize.bind({ statement: statement.name, values }),
              serialize.describe({ type: "P" }),
              serialize.execute({}),
              serialize.sync(),
            ]),
          );
        } catch (err) {
          // "cached plan must not change result type": its tables changed shape since it was kept.
          if ((err as { code?: string }).code !== "0A000") throw err;
          named.delete(text);
          return STALE;
        }
        await pg.syncToFs();
        return parse.parseResults(messages as never, pg.parsers as never, options)[0] as Results<T>;
      }),
    );
  }

  client.query = (<T>(text: string, params?: unknown[], options?: QueryOptions) =>
    options?.blob
      ? original<T>(text, params, options)
      : namedQuery<T>(text, params ?? [], options)) as never;
  return () => {
    client.query = original as never;
  };
}
