import { describe, expect, it } from "vitest";
import { BACKUP_EVERY_MESSAGE, loadEnv, TRUST_PROXY_MESSAGE, WORKERS_NEED_POSTGRES } from "./env";
import { POOL_SIZE, serverPoolSize } from "./db/client";

/** Issue 2: the environment is validated at boot, with clear errors naming the variable. */
describe("loadEnv", () => {
  it("fills the documented defaults", () => {
    expect(loadEnv({})).toEqual({
      NODE_ENV: "production",
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      AI_MODEL: "gpt-4o-mini",
      ALLOWED_ORIGINS: [],
      TRUST_PROXY: false,
      LOG_LEVEL: "info",
      LOGIN_MAX_FAILURES_PER_USER: 10,
      LOGIN_MAX_FAILURES_PER_IP: 100,
      LOGIN_MAX_FAILURES_PER_ACCOUNT: 100,
      LOGIN_WINDOW_MINUTES: 10,
      REGISTRATIONS_PER_HOUR_PER_IP: 10,
      SESSION_CACHE_SECONDS: 30,
      RANKING_COHORT_SECONDS: 5,
      DUE_PAGE_CACHE: true,
      WORKERS: 1,
      BACKUP_EVERY: 86_400_000,
      BACKUP_KEEP: 14,
      AUDIT_RETENTION_DAYS: 365,
      PGLITE_OPTIMIZE_WASM: false,
      PGLITE_TURN_SLICE_MS: 20,
      OIDC_ALLOWED_DOMAINS: [],
      PASSWORD_SIGN_IN: "on",
    });
  });

  it("reads scheduled backups' interval as minutes, hours or days, and refuses anything else (issue 33)", () => {
    expect(loadEnv({ BACKUP_DIR: "/b", BACKUP_EVERY: "30m", BACKUP_KEEP: "3" })).toMatchObject({
      BACKUP_DIR: "/b",
      BACKUP_EVERY: 1_800_000,
      BACKUP_KEEP: 3,
    });
    expect(loadEnv({ BACKUP_EVERY: "7d" }).BACKUP_EVERY).toBe(7 * 86_400_000);
    for (const bad of ["24", "1.5h", "10s", "daily"]) {
      expect(() => loadEnv({ BACKUP_EVERY: bad })).toThrow(`BACKUP_EVERY: ${BACKUP_EVERY_MESSAGE}`);
    }
    expect(() => loadEnv({ BACKUP_KEEP: "0" })).toThrow(
      "BACKUP_KEEP: BACKUP_KEEP must be a whole number of at least 1",
    );
  });

  it("keeps audit entries AUDIT_RETENTION_DAYS days, a whole number of at least 1 (issue 33)", () => {
    expect(loadEnv({ AUDIT_RETENTION_DAYS: "30" }).AUDIT_RETENTION_DAYS).toBe(30);
    for (const bad of ["0", "1.5", "forever"]) {
      expect(() => loadEnv({ AUDIT_RETENTION_DAYS: bad })).toThrow(
        "AUDIT_RETENTION_DAYS: AUDIT_RETENTION_DAYS must be a whole number of at least 1",
      );
    }
  });

  it("reads the embedded database's turn slice as whole milliseconds, 0 for off (decision 434)", () => {
    expect(loadEnv({ PGLITE_TURN_SLICE_MS: "0" }).PGLITE_TURN_SLICE_MS).toBe(0);
    expect(loadEnv({ PGLITE_TURN_SLICE_MS: "50" }).PGLITE_TURN_SLICE_MS).toBe(50);
    for (const bad of ["-1", "2.5", "1001", "fast"]) {
      expect(() => loadEnv({ PGLITE_TURN_SLICE_MS: bad })).toThrow(
        "PGLITE_TURN_SLICE_MS: PGLITE_TURN_SLICE_MS must be a whole number from 0 to 1000 (0: off)",
      );
    }
  });

  it("reads PostgreSQL's pool size per process as a whole number from 1 to 100, unset by default (decision 436)", () => {
    expect(loadEnv({}).DATABASE_POOL_SIZE).toBeUndefined();
    expect(loadEnv({ DATABASE_POOL_SIZE: "16" }).DATABASE_POOL_SIZE).toBe(16);
    for (const bad of ["0", "2.5", "101", "many"]) {
      expect(() => loadEnv({ DATABASE_POOL_SIZE: bad })).toThrow(
        "DATABASE_POOL_SIZE: DATABASE_POOL_SIZE must be a whole number from 1 to 100",
      );
    }
  });

  it("sizes a process's pool at two connections per core shared by the processes, from 3 to 10 (decision 436)", () => {
    expect(serverPoolSize(2, 1)).toBe(4);
    expect(serverPoolSize(4, 1)).toBe(8);
    expect(serverPoolSize(16, 1)).toBe(POOL_SIZE.MAX);
    expect(serverPoolSize(1, 1)).toBe(POOL_SIZE.MIN);
    expect(serverPoolSize(8, 4)).toBe(4);
    expect(serverPoolSize(2, 4)).toBe(POOL_SIZE.MIN);
    // Whatever the machine reports, a usable pool.
    expect(serverPoolSize(0, 0)).toBe(POOL_SIZE.MIN);
  });

  it("keeps PGlite's WebAssembly on the baseline compiler unless PGLITE_OPTIMIZE_WASM says 1 (issue 20 item 4)", () => {
    expect(loadEnv({ PGLITE_OPTIMIZE_WASM: "1" }).PGLITE_OPTIMIZE_WASM).toBe(true);
    expect(loadEnv({ PGLITE_OPTIMIZE_WASM: "true" }).PGLITE_OPTIMIZE_WASM).toBe(true);
    expect(loadEnv({ PGLITE_OPTIMIZE_WASM: "0" }).PGLITE_OPTIMIZE_WASM).toBe(false);
    expect(() => loadEnv({ PGLITE_OPTIMIZE_WASM: "yes please" })).toThrow(
      "PGLITE_OPTIMIZE_WASM: PGLITE_OPTIMIZE_WASM must be 0 or 1",
    );
  });

  it("runs several server processes only on PostgreSQL (issue 20 item 5)", () => {
    expect(loadEnv({ WORKERS: "2", DATABASE_URL: "postgres://prite@db:5432/prite" }).WORKERS).toBe(
      2,
    );
    expect(() => loadEnv({ WORKERS: "2" })).toThrow(`WORKERS: ${WORKERS_NEED_POSTGRES}`);
    expect(() => loadEnv({ WORKERS: "0", DATABASE_URL: "postgres://db/prite" })).toThrow(
      "WORKERS: WORKERS must be a whole number from 1 to 64",
    );
    expect(loadEnv({ WORKERS: "1" }).WORKERS).toBe(1);
  });

  it("treats an empty variable as unset", () => {
    expect(loadEnv({ PORT: "", DATABASE_URL: "", TRUST_PROXY: "" })).toMatchObject({
      PORT: 3000,
      TRUST_PROXY: false,
    });
    expect(loadEnv({ DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  });

  it("reads good values", () => {
    const env = loadEnv({
      PORT: "8080",
      HOST: "127.0.0.1",
      DATA_DIR: "/var/lib/prite",
      DATABASE_URL: "postgresql://prite@db:5432/prite",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: "https://llm.example/v1",
      AI_MODEL: "some-model",
      ALLOWED_ORIGINS: " https://a.example/ ,https://b.example,, ",
      TRUST_PROXY: "yes",
      LOG_LEVEL: "warn",
      LOGIN_MAX_FAILURES_PER_USER: "5",
      LOGIN_MAX_FAILURES_PER_IP: "50",
      LOGIN_WINDOW_MINUTES: "15",
      SESSION_CACHE_SECONDS: "0",
    });
    expect(env).toMatchObject({
      PORT: 8080,
      HOST: "127.0.0.1",
      DATABASE_URL: "postgresql://prite@db:5432/prite",
      OPENAI_BASE_URL: "https://llm.example/v1",
      ALLOWED_ORIGINS: ["https://a.example", "https://b.example"],
      TRUST_PROXY: 1,
      LOG_LEVEL: "warn",
      LOGIN_MAX_FAILURES_PER_USER: 5,
      LOGIN_MAX_FAILURES_PER_IP: 50,
      LOGIN_WINDOW_MINUTES: 15,
      SESSION_CACHE_SECONDS: 0,
    });
    // Issue 24: a number of hops or the proxies' addresses; true is one hop, never "every hop".
    for (const [raw, value] of [
      ["true", 1],
      ["1", 1],
      ["2", 2],
      ["false", false],
      ["0", false],
      ["no", false],
      ["10.0.0.5", ["10.0.0.5"]],
      [" 10.0.0.0/8, ::1 ,fd00::/8", ["10.0.0.0/8", "::1", "fd00::/8"]],
    ] as const) {
      expect(loadEnv({ TRUST_PROXY: raw }).TRUST_PROXY).toEqual(value);
    }
  });

  it.each([
    [{ PORT: "abc" }, "PORT: PORT must be a port number from 0 to 65535"],
    [{ PORT: "70000" }, "PORT: PORT must be a port number from 0 to 65535"],
    [{ PORT: "80.5" }, "PORT: PORT must be a port number from 0 to 65535"],
    [
      { DATABASE_URL: "mysql://root@db/prite" },
      "DATABASE_URL: DATABASE_URL must start with postgres:// or postgresql://",
    ],
    [{ OPENAI_BASE_URL: "not a url" }, "OPENAI_BASE_URL: OPENAI_BASE_URL must be a URL"],
    [{ TRUST_PROXY: "maybe" }, `TRUST_PROXY: ${TRUST_PROXY_MESSAGE}`],
    [{ TRUST_PROXY: "10.0.0.0/33" }, `TRUST_PROXY: ${TRUST_PROXY_MESSAGE}`],
    [{ TRUST_PROXY: "999" }, `TRUST_PROXY: ${TRUST_PROXY_MESSAGE}`],
    [
      { LOG_LEVEL: "loud" },
      "LOG_LEVEL: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
    ],
    [
      { LOGIN_MAX_FAILURES_PER_USER: "0" },
      "LOGIN_MAX_FAILURES_PER_USER: LOGIN_MAX_FAILURES_PER_USER must be a whole number of at least 1",
    ],
    [
      { LOGIN_WINDOW_MINUTES: "ten" },
      "LOGIN_WINDOW_MINUTES: LOGIN_WINDOW_MINUTES must be a whole number of at least 1",
    ],
    [
      { SESSION_CACHE_SECONDS: "600" },
      "SESSION_CACHE_SECONDS: SESSION_CACHE_SECONDS must be a whole number from 0 to 300",
    ],
    [
      { RANKING_COHORT_SECONDS: "61" },
      "RANKING_COHORT_SECONDS: RANKING_COHORT_SECONDS must be a whole number from 0 to 60",
    ],
    [{ DUE_PAGE_CACHE: "off" }, "DUE_PAGE_CACHE: DUE_PAGE_CACHE must be 0 or 1"],
    [{ NODE_ENV: "staging" }, "NODE_ENV: NODE_ENV must be development, production or test"],
  ])("refuses %o with a message naming the variable", (source, line) => {
    expect(() => loadEnv(source)).toThrow(`Invalid environment:\n  ${line}`);
  });

  it("lists every bad variable at once", () => {
    let message = "";
    try {
      loadEnv({ PORT: "-1", TRUST_PROXY: "perhaps", DATABASE_URL: "sqlite://x" });
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split("\n");
    expect(lines[0]).toBe("Invalid environment:");
    expect(
      lines
        .slice(1)
        .map((l) => l.trim().split(":")[0])
        .sort(),
    ).toEqual(["DATABASE_URL", "PORT", "TRUST_PROXY"]);
  });
});
