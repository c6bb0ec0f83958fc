import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { ZRegisterInput } from "../../core/schemas";
import { createSession } from "../auth/session";
import { buildApp } from "../app";
import { registerUser } from "../features/auth/auth.service";
import { createContextInner, type ContextInnerOptions } from "../trpc/context";
import { createCaller } from "../trpc/router";
import { createTestDb, type TestDb } from "./db";
import type { UserRow } from "../db/schema";
import { count, eq } from "drizzle-orm";
import { questions, users } from "../db/schema";

let counter = 0;

export interface TestUser {
  user: UserRow;
  token: string;
  caller: ReturnType<typeof createCaller>;
  /** Headers a REST client sends. */
  headers: { "x-auth-token": string };
}

export interface Harness {
  db: TestDb;
  anonymous: ReturnType<typeof createCaller>;
  /** Registers a user through the real service (first one is admin, as in production). */
  user(opts?: {
    username?: string;
    pgyLevel?: string;
    isAdmin?: boolean;
    password?: string;
  }): Promise<TestUser>;
  callerFor(
    user: UserRow,
    extra?: Partial<ContextInnerOptions>,
  ): Promise<ReturnType<typeof createCaller>>;
  app(): Promise<FastifyInstance>;
  /** `POST /api/auth/login` through the HTTP app, as a REST client signs in. */
  signIn(username: string, password: string): Promise<LightMyRequestResponse>;
  /** How many questions the user has created, read from the table. */
  questionsCreatedBy(userId: string): Promise<number>;
  close(): Promise<void>;
}

export async function createHarness(
  ctxDefaults: Partial<ContextInnerOptions> = {},
): Promise<Harness> {
  const db = await createTestDb();
  let app: FastifyInstance | undefined;
  const callerFor = async (user: UserRow, extra: Partial<ContextInnerOptions> = {}) => {
    const { session } = await createSession(db.db, user.id, new Date());
    return createCaller(createContextInner({ db: db.db, user, session, ...ctxDefaults, ...extra }));
  };
  const appOnce = async () => {
    app ??= await buildApp({
      handle: db,
      config: {
        throttle: { maxPerUser: 10, maxPerIp: 100, windowMinutes: 10 },
        aiModel: null,
        ...ctxDefaults.config,
      },
      webDir: null,
      now: ctxDefaults.now,
    });
    return app;
  };
  return {
    db,
    anonymous: createCaller(createContextInner({ db: db.db, ...ctxDefaults })),
    async user(opts = {}) {
      counter += 1;
      const username = opts.username ?? `user${counter}_${Math.random().toString(36).slice(2, 7)}`;
      const result = await registerUser(
        db.db,
        {
          username,
          email: `${username}@example.test`,
          password: opts.password ?? "correct horse battery",
          confirmPassword: opts.password ?? "correct horse battery",
          // A level a test names must be one the register form offers.
          pgyLevel: ZRegisterInput.shape.pgyLevel.parse(opts.pgyLevel ?? "2"),
        },
        { now: new Date(), timeZone: "UTC" },
      );
      let user = result.user;
      if (opts.isAdmin !== undefined && opts.isAdmin !== user.isAdmin) {
        [user] = (await db.db
          .update(users)
          .set({ isAdmin: opts.isAdmin })
          .where(eq(users.id, user.id))
          .returning()) as [UserRow];
      }
      const caller = createCaller(
        createContextInner({
          db: db.db,
          user,
          session: {
            id: "test",
            userId: user.id,
            expiresAt: result.expiresAt,
            createdAt: new Date(),
          },
          ...ctxDefaults,
        }),
      );
      return { user, token: result.token, caller, headers: { "x-auth-token": result.token } };
    },
    callerFor,
    app: appOnce,
    async signIn(username, password) {
      return (await appOnce()).inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { username, password },
      });
    },
    async questionsCreatedBy(userId) {
      const [row] = await db.db
        .select({ n: count() })
        .from(questions)
        .where(eq(questions.creatorId, userId));
      return Number(row?.n ?? 0);
    },
    async close() {
      await app?.close();
      await db.close();
    },
  };
}
