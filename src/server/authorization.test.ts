import { TRPCError } from "@trpc/server";
import { inArray } from "drizzle-orm";
import { users } from "./db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setQuestionMedia, storeMedia } from "./features/media/media.service";
import { addFlashcard, addQuestion } from "./features/study/test-fixtures";
import { databaseSnapshot } from "./test/db-snapshot";
import { createHarness, type Harness, type TestUser } from "./test/harness";
import { studyStates } from "./db/schema";
import { appRouter } from "./trpc/router";

/**
 * The authorization matrix (issue 9 item 1): every tRPC procedure, read from the router itself, and every
 * REST route, read from the server itself, is called as anonymous, owner, another user and admin.
 * A procedure or route missing from the tables below fails the test, so a new one cannot be forgotten:
 * a procedure that takes the id of an object must list its cases (owner allowed; another user 404 for
 * objects they cannot see, 403 for ones they can see but not change; admin likewise, as admins have no
 * special rights over other people's questions and records), or be marked as acting on the caller's own
 * data only. Every refused call leaves every table as it was.
 */

type Outcome = "OK" | "NULL" | "NOT_FOUND" | "FORBIDDEN";

interface ObjectCase {
  label: string;
  /** Creates the owner's object afresh and answers the call's input. */
  make: () => Promise<unknown>;
  other: Outcome;
  admin: Outcome;
}

type Access =
  /** Answers without a session. */
  | { kind: "public" }
  /** Acts only on the caller's own data; a query is probed for leaks with `probe` as its input. */
  | { kind: "caller"; probe?: unknown }
  /** Admins only; `input` is what an admin calls it with. */
  | { kind: "admin"; input?: () => unknown }
  /** Takes the id of an object that belongs to someone. */
  | { kind: "object"; cases: ObjectCase[] };

let h: Harness;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
/** The owner's objects that nobody else may ever see. */
let secret: { privateQ: string; score: string; session: string; key: string };
const MARKER = "owner-private-marker";
/** Issue 36: a public question of the owner's taken down by three readers' copyright reports. */
let takedownQ = "";
let keyYear = 2000;
let imageSeq = 0;

const fresh = {
  /** Issue 32: a new program whose director the owner becomes (leaving any other). */
  directedProgram: async (): Promise<string> => fresh.program(),
  privateQ: async (text?: string) =>
    (await addQuestion(h.db.db, owner.user.id, { isPublic: false, ...(text ? { text } : {}) })).id,
  publicQ: async () => (await addQuestion(h.db.db, owner.user.id, { isPublic: true })).id,
  /** Issue 17: flashcards, rated instead of answered. */
  privateCard: async () => (await addFlashcard(h.db.db, owner.user.id, { isPublic: false })).id,
  publicCard: async () => (await addFlashcard(h.db.db, owner.user.id, { isPublic: true })).id,
  /** Issue 34: a public question the owner failed into a leech (the state row written as a test does). */
  leech: async () => {
    const id = (await addQuestion(h.db.db, owner.user.id, { isPublic: true })).id;
    await h.db.db
      .insert(studyStates)
      .values({ userId: owner.user.id, questionId: id, lapses: 8, leech: true });
    return id;
  },
  score: async () =>
    ((await owner.caller.scores.create({ year: 2024, overallPercentile: 55 })) as { _id: string })
      ._id,
  session: async () => (await owner.caller.study.startSession()).session!.id,
  /** A tutor exam of the owner's, running, and the id of its first question. */
  exam: async () => {
    await fresh.privateQ();
    const { exam } = await owner.caller.exams.create({ size: 5, mode: "tutor" });
    return { examId: exam.id, questionId: exam.questions[0]!.questionId };
  },
  /** One the owner has submitted, with a wrong answer to send to study. */
  finishedExam: async () => {
    const { examId, questionId } = await fresh.exam();
    await owner.caller.exams.answer({ examId, questionId, selected: ["A"] });
    await owner.caller.exams.submit({ examId });
    return examId;
  },
  /** The join code of a mock exam the owner shared. */
  mockCode: async () => {
    await fresh.publicQ();
    const { examId } = await fresh.exam();
    return (await owner.caller.exams.share({ examId })).mockExam.code;
  },
  /** A flashcard of the owner's, showing an image. */
  flashcard: async (isPublic: boolean) => {
    imageSeq += 1;
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, imageSeq, 2]);
    const { sha256 } = await storeMedia(h.db.db, { bytes, uploadedBy: owner.user.id });
    const card = await owner.caller.questions.createFlashcard({
      front: `Front <img src="${sha256}">`,
      back: "Back",
      part: "1",
      year: 2024,
      isPublic,
    });
    return card._id;
  },
  /** An image (a PNG distinct per call) shown by a private or a public question of the owner's. */
  image: async (isPublic: boolean) => {
    imageSeq += 1;
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, imageSeq, 1]);
    const { sha256 } = await storeMedia(h.db.db, { bytes, uploadedBy: owner.user.id });
    const questionId = isPublic ? await fresh.publicQ() : await fresh.privateQ();
    await setQuestionMedia(h.db.db, questionId, [sha256]);
    return sha256;
  },
  /** The program the owner directs (made afresh when they direct none). */
  program: async () => {
    const mine = await owner.caller.programs.mine();
    if (mine?.role === "director") return mine.id;
    await outOfPrograms(owner.user.id);
    return (await owner.caller.programs.create({ name: "The owner's program" })).id;
  },
  /** A new resident of the owner's program. */
  programMember: async () => {
    const id = await fresh.program();
    const member = await h.user();
    await member.caller.programs.join({ code: (await owner.caller.programs.get({ id })).code! });
    return { id, userId: member.user.id };
  },
  /** The owner's program with a second director, so that the owner may leave it. */
  leavableProgram: async () => {
    const { id, userId } = await fresh.programMember();
    await owner.caller.programs.setRole({ id, userId, role: "director" });
    return id;
  },
  /** The code of a program of a new director's, with nobody of this file in any program. */
  otherProgramCode: async () => {
    await outOfPrograms(owner.user.id, other.user.id, admin.user.id);
    const director = await h.user();
    return (await director.caller.programs.create({ name: "Another program" })).code!;
  },
  /** Issue 32: a study set of the owner's program. */
  studySet: async () => {
    await fresh.program();
    return (
      await owner.caller.assignments.create({
        kind: "study",
        count: 3,
        due: "2099-01-01",
      })
    ).assignment.id;
  },
  /** An exam assignment of the owner's program. */
  examAssignment: async () => {
    await fresh.program();
    await fresh.publicQ();
    return (
      await owner.caller.assignments.create({
        kind: "exam",
        size: 5,
        mode: "timed",
        due: "2099-01-01",
      })
    ).assignment.id;
  },
  /** A question of the owner's program's bank. */
  programQ: async () =>
    (
      await addQuestion(h.db.db, owner.user.id, {
        isPublic: false,
        programId: await fresh.program(),
      })
    ).id,
  /**
   * Issue 36: a report on a question of the owner's: on a private one, the owner's own; on a public
   * one, a new reader's, or `other`'s (the reporter, who may not resolve it).
   */
  report: async (on: "private" | "public" | "by other"): Promise<string> => {
    const questionId = on === "private" ? await fresh.privateQ() : await fresh.publicQ();
    const reporter = on === "private" ? owner : on === "by other" ? other : await h.user();
    return (await reporter.caller.reports.create({ questionId, kind: "unclear", comment: "Vague" }))
      .report.id;
  },
  /** An answer key of the owner's for a part and year nobody else uses in this file. */
  key: async () => {
    keyYear += 1;
    const key = { part: "1" as const, year: keyYear };
    await owner.caller.answerKeys.save({ ...key, answers: { "1": "B" } });
    return key;
  },
};

/** Takes users out of their programs directly (a fixture: the procedures' rules are tested elsewhere). */
async function outOfPrograms(...ids: string[]): Promise<void> {
  await h.db.db
    .update(users)
    .set({ programId: null, programRole: null, programJoinedAt: null })
    .where(inArray(users.id, ids));
}

const bulkItem = (id: string) => ({
  _id: id,
  text: "Replaced by a bulk save",
  options: { A: "a", B: "b" },
  correctAnswer: "A",
  part: "1",
  year: 2024,
});
const importItem = (targetId: string) => ({
  question: {
    text: "An imported question",
    options: { A: "a", B: "b" },
    correctAnswer: "A",
    part: "1",
    year: 2024,
  },
  action: { merge: "newer", targetId },
});

const flashcards = { privateQ: fresh.privateCard, publicQ: fresh.publicCard };
/** Issue 36 item 4: questions of the owner's edited once, so that version 1 can be restored. */
const editedOnce = async (id: string) => {
  await owner.caller.questions.update({ id, data: { correctAnswer: "C" } });
  return id;
};
const edited = {
  privateQ: async () => editedOnce(await fresh.privateQ()),
  publicQ: async () => editedOnce(await fresh.publicQ()),
};

/** Procedures taking an object id list their cases. */
const objectAccess = (...cases: ObjectCase[]): Access => ({ kind: "object", cases });

/** The same call on a private and on a public question of the owner's. */
function onQuestions(
  input: (id: string) => unknown,
  onPrivate: Outcome,
  onPublic: Outcome,
  kinds = { privateQ: fresh.privateQ, publicQ: fresh.publicQ },
): ObjectCase[] {
  return [
    {
      label: "private",
      make: async () => input(await kinds.privateQ()),
      other: onPrivate,
      admin: onPrivate,
    },
    {
      label: "public",
      make: async () => input(await kinds.publicQ()),
      other: onPublic,
      admin: onPublic,
    },
  ];
}

/** A call on an object nobody else may see or change. */
function onPrivate(
  label: string,
  make: () => Promise<unknown>,
  outcome: Outcome = "NOT_FOUND",
): Access {
  return objectAccess({ label, make, other: outcome, admin: outcome });
}

const PROCEDURES: Record<string, Access> = {
  "auth.register": { kind: "public" },
  "auth.login": { kind: "public" },
  "auth.signInOptions": { kind: "public" },
  "auth.logout": { kind: "caller" },
  "auth.me": { kind: "caller" },
  "auth.changePassword": { kind: "caller" },
  // Issue 33: a reset link acts on whoever's token it carries; sessions are the caller's own.
  "auth.forgotPassword": { kind: "public" },
  "auth.resetPassword": { kind: "public" },
  "auth.sessions": { kind: "caller" },
  "auth.signOutOthers": { kind: "caller" },
  "users.updateProfile": { kind: "caller" },
  "users.updateSettings": { kind: "caller" },
  "users.markScoresOnboardingOffered": { kind: "caller" },
  "users.exportStudyData": { kind: "caller" },
  "users.scoreSharing": { kind: "caller" },
  "users.setScoreSharing": { kind: "caller" },
  "users.exportQuestions": { kind: "caller" },
  "users.exportAnki": { kind: "caller" },
  "users.resetStudyProgress": { kind: "caller" },
  "users.deleteAccount": { kind: "caller" },
  "scores.list": { kind: "caller" },
  "scores.create": { kind: "caller" },
  "scores.get": onPrivate("score", async () => ({ id: await fresh.score() })),
  "scores.update": onPrivate("score", async () => ({
    id: await fresh.score(),
    year: 2024,
    overallPercentile: 1,
  })),
  "scores.delete": onPrivate("score", async () => ({ id: await fresh.score() })),
  "admin.users": { kind: "admin" },
  "admin.stats": { kind: "admin" },
  "admin.audit": { kind: "admin", input: () => ({}) },
  "admin.setRole": {
    kind: "admin",
    input: () => ({ username: other.user.username, isAdmin: false }),
  },
  "admin.resetLink": { kind: "admin", input: () => ({ username: other.user.username }) },
  "questions.list": { kind: "caller" },
  "questions.search": { kind: "caller", probe: { text: MARKER, visibility: "all" } },
  "questions.categories": { kind: "caller" },
  "questions.categoryStats": { kind: "caller" },
  "questions.create": { kind: "caller" },
  "questions.createFlashcard": { kind: "caller" },
  // Issue 17: deck names of the questions the caller may see (the secret question's is never among them).
  "questions.sources": { kind: "caller" },
  "questions.get": objectAccess(...onQuestions((id) => ({ id }), "NOT_FOUND", "OK")),
  // Issue 36 item 5: item statistics; another user's private question is missing, a public one's
  // statistics are the owner's and the admins' (decision 390).
  "questions.itemStats": objectAccess(
    {
      label: "private",
      make: async () => ({ id: await fresh.privateQ() }),
      other: "NOT_FOUND",
      admin: "NOT_FOUND",
    },
    {
      label: "public",
      make: async () => ({ id: await fresh.publicQ() }),
      other: "FORBIDDEN",
      admin: "OK",
    },
  ),
  "questions.update": objectAccess(
    ...onQuestions((id) => ({ id, data: { text: "stolen" } }), "NOT_FOUND", "FORBIDDEN"),
    // Issue 17: a flashcard's edit, with its own fields.
    ...["private", "public"].map((visibility) => ({
      label: `${visibility} flashcard`,
      make: async () => ({
        id: await fresh.flashcard(visibility === "public"),
        data: { back: "stolen" },
      }),
      other: visibility === "public" ? ("FORBIDDEN" as const) : ("NOT_FOUND" as const),
      admin: visibility === "public" ? ("FORBIDDEN" as const) : ("NOT_FOUND" as const),
    })),
  ),
  "questions.delete": objectAccess(...onQuestions((id) => ({ id }), "NOT_FOUND", "FORBIDDEN")),
  // An item with an `_id` replaces that question.
  "questions.bulkCreate": objectAccess(
    ...onQuestions((id) => ({ questions: [bulkItem(id)] }), "NOT_FOUND", "FORBIDDEN"),
  ),
  // Issue 36 item 4: the owner's; admins read a public question's history but never restore.
  // Directors and residents of the question's program: features/history/history.test.ts.
  "questions.history": objectAccess(
    ...onQuestions((id) => ({ id }), "NOT_FOUND", "FORBIDDEN").map((c) =>
      c.label === "public" ? { ...c, admin: "OK" as const } : c,
    ),
  ),
  "questions.restoreVersion": objectAccess(
    ...onQuestions((id) => ({ id, version: 1 }), "NOT_FOUND", "FORBIDDEN", edited),
  ),
  "study.due": { kind: "caller" },
  "study.startSession": { kind: "caller" },
  "study.finishSession": onPrivate("session", async () => ({ sessionId: await fresh.session() })),
  "study.answer": objectAccess(
    ...onQuestions(
      (questionId) => ({ questionId, selected: ["B"], timeSpentMs: 1 }),
      "NOT_FOUND",
      "OK",
    ),
    {
      label: "in another user's session",
      make: async () => ({
        questionId: await fresh.publicQ(),
        selected: ["B"],
        timeSpentMs: 1,
        sessionId: await fresh.session(),
      }),
      other: "NOT_FOUND",
      admin: "NOT_FOUND",
    },
  ),
  "study.rate": objectAccess(
    ...onQuestions((questionId) => ({ questionId, difficulty: 1 }), "NOT_FOUND", "OK"),
  ),
  // Issue 17: a flashcard's rating is a review of a question the caller can see, in their own session.
  "study.rateFlashcard": objectAccess(
    ...onQuestions(
      (questionId) => ({ questionId, rating: "good", timeSpentMs: 1 }),
      "NOT_FOUND",
      "OK",
      flashcards,
    ),
    {
      label: "in another user's session",
      make: async () => ({
        questionId: await fresh.publicCard(),
        rating: "again",
        sessionId: await fresh.session(),
      }),
      other: "NOT_FOUND",
      admin: "NOT_FOUND",
    },
  ),
  "study.nextIntervals": objectAccess(
    ...onQuestions((questionId) => ({ questionId }), "NOT_FOUND", "OK", flashcards),
  ),
  // Issue 18: writes only the caller's reviews; an answer to a question they cannot see is refused
  // within the sync's answer (sync.test.ts), never stored.
  "study.sync": { kind: "caller" },
  "study.offlineCopy": { kind: "caller" },
  // Issue 19: the caller's own scheduler settings and review log only.
  "study.scheduler": { kind: "caller" },
  "study.updateScheduler": { kind: "caller" },
  "study.optimize": { kind: "caller" },
  // Issue 34: the day's plan and leeches. A leech is the caller's own: another user's is not found,
  // even on a public question they can see.
  "study.dayPlan": { kind: "caller" },
  "study.setDailyLimits": { kind: "caller" },
  "study.startCatchUp": { kind: "caller" },
  "study.endCatchUp": { kind: "caller" },
  "study.leeches": { kind: "caller" },
  "study.ownerLeechCounts": { kind: "caller" },
  "study.resetLeech": onPrivate("leech", async () => ({
    questionId: await fresh.leech(),
    confirm: true,
  })),
  "study.reportLeech": onPrivate("leech", async () => ({
    questionId: await fresh.leech(),
    note: "The answer key looks wrong",
  })),
  // Issue 36: a reader reports what they can see; a report is resolved by the question's handlers
  // (its owner; admins for public questions), never by its reporter (403) or anyone else (404).
  "reports.create": objectAccess(
    ...onQuestions(
      (questionId) => ({ questionId, kind: "unclear", comment: "Vague" }),
      "NOT_FOUND",
      "OK",
    ),
  ),
  "reports.queue": { kind: "caller", probe: {} },
  "reports.openCount": { kind: "caller" },
  "reports.mine": { kind: "caller" },
  "reports.resolve": objectAccess(
    ...(
      [
        ["private", "NOT_FOUND", "NOT_FOUND"],
        ["public", "NOT_FOUND", "OK"],
        ["by other", "FORBIDDEN", "OK"],
      ] as const
    ).map(([on, otherOutcome, adminOutcome]) => ({
      label: `report on a ${on} question`,
      make: async () => ({ id: await fresh.report(on), outcome: "dismissed", note: "" }),
      other: otherOutcome,
      admin: adminOutcome,
    })),
  ),
  "reports.decideTakedown": {
    kind: "admin",
    input: () => ({ questionId: takedownQ, decision: "keep", note: "" }),
  },
  // Issue 34: the caller's own exam plan and forecast only.
  "study.plan": { kind: "caller" },
  "study.setPlan": { kind: "caller" },
  "stats.summary": { kind: "caller" },
  // Issue 32: the program dashboard is its directors'; another program's id reads as missing, and a
  // user outside any program (other, admin) is refused before it. A resident's own row is theirs.
  "programReport.report": objectAccess({
    label: "program",
    make: async () => ({ programId: await fresh.directedProgram() }),
    other: "FORBIDDEN",
    admin: "FORBIDDEN",
  }),
  "programReport.setThresholds": objectAccess({
    label: "program",
    make: async () => ({
      programId: await fresh.directedProgram(),
      inactiveDays: 10,
      accuracyFlag: 0.5,
    }),
    other: "FORBIDDEN",
    admin: "FORBIDDEN",
  }),
  "programReport.mine": { kind: "caller" },
  "programReport.classPercentiles": { kind: "caller" },
  "stats.comparative": { kind: "caller" },
  "stats.session": onPrivate("session", async () => ({ sessionId: await fresh.session() })),
  "explanations.status": { kind: "caller" },
  "explanations.generate": { kind: "caller" },
  "explanations.save": objectAccess(
    ...onQuestions(
      (questionId) => ({ questionId, explanation: "mine now" }),
      "NOT_FOUND",
      "FORBIDDEN",
    ),
  ),
  "imports.checkDuplicates": { kind: "caller" },
  // An uploaded image is shown to nobody until a question the uploader commits shows it.
  "imports.uploadMedia": { kind: "caller" },
  // A merge names the question it goes into.
  "imports.commit": objectAccess(
    ...onQuestions((targetId) => ({ items: [importItem(targetId)] }), "NOT_FOUND", "FORBIDDEN"),
  ),
  // Answer keys are addressed by part and year inside the caller's own keys (docs/product/product-decisions.md): another user
  // reaches only their own (none), never the owner's.
  "answerKeys.list": { kind: "caller" },
  "answerKeys.save": { kind: "caller" },
  "answerKeys.importText": { kind: "caller" },
  "answerKeys.get": onPrivate("key", () => fresh.key(), "NULL"),
  "answerKeys.delete": onPrivate("key", () => fresh.key()),
  "answerKeys.applyToQuestions": onPrivate("key", () => fresh.key()),
  "ai.status": { kind: "caller" },
  "ai.process": { kind: "caller" },
  "parser.questions": { kind: "caller" },
  // Issue 16: an exam is its taker's alone (404 to everyone else, admins included).
  "exams.create": { kind: "caller" },
  "exams.list": { kind: "caller" },
  "exams.mocks": { kind: "caller" },
  "exams.allMocks": { kind: "admin" },
  "exams.get": onPrivate("exam", async () => ({ examId: (await fresh.exam()).examId })),
  "exams.answer": onPrivate("exam", async () => ({ ...(await fresh.exam()), selected: ["B"] })),
  "exams.flag": onPrivate("exam", async () => ({ ...(await fresh.exam()), flagged: true })),
  "exams.eliminate": onPrivate("exam", async () => ({
    ...(await fresh.exam()),
    eliminated: ["A"],
  })),
  "exams.submit": onPrivate("exam", async () => ({ examId: (await fresh.exam()).examId })),
  "exams.delete": onPrivate("exam", async () => ({ examId: (await fresh.exam()).examId })),
  "exams.share": onPrivate("exam", async () => {
    await fresh.publicQ();
    return { examId: (await fresh.exam()).examId };
  }),
  "exams.report": onPrivate("exam", async () => ({ examId: await fresh.finishedExam() })),
  "exams.review": onPrivate("exam", async () => ({ examId: await fresh.finishedExam() })),
  "exams.studyIncorrect": onPrivate("exam", async () => ({ examId: await fresh.finishedExam() })),
  // A mock exam is joined by anyone with its code; its results are its creator's and admins'; only
  // its creator closes it.
  "exams.join": objectAccess({
    label: "mock exam",
    make: async () => ({ code: await fresh.mockCode() }),
    other: "OK",
    admin: "OK",
  }),
  "exams.mockResults": objectAccess({
    label: "mock exam",
    make: async () => ({ code: await fresh.mockCode() }),
    other: "FORBIDDEN",
    admin: "OK",
  }),
  // Issue 17: an image is served to those who can see a question showing it, 404 to everyone else.
  "media.get": objectAccess(
    {
      label: "on a private question",
      make: async () => ({ sha256: await fresh.image(false) }),
      other: "NOT_FOUND",
      admin: "NOT_FOUND",
    },
    {
      label: "on a public question",
      make: async () => ({ sha256: await fresh.image(true) }),
      other: "OK",
      admin: "OK",
    },
  ),
  // Issue 32: a program is its members' alone; anyone else, admins included, is told it does not
  // exist (decision 345); admins list every program with programs.all. Roles: programs.test.ts.
  "programs.mine": { kind: "caller" },
  "programs.create": { kind: "caller" },
  "programs.all": { kind: "admin" },
  "programs.get": onPrivate("program", async () => ({ id: await fresh.program() })),
  "programs.members": onPrivate("program", async () => ({ id: await fresh.program() })),
  "programs.renewCode": onPrivate("program", async () => ({ id: await fresh.program() })),
  "programs.update": onPrivate("program", async () => ({
    id: await fresh.program(),
    name: "Renamed",
  })),
  "programs.leave": onPrivate("program", async () => ({ id: await fresh.leavableProgram() })),
  "programs.setRole": onPrivate("program member", async () => ({
    ...(await fresh.programMember()),
    role: "director",
  })),
  "programs.removeMember": onPrivate("program member", () => fresh.programMember()),
  // Anyone signed in with the code sees the name and joins.
  "programs.preview": objectAccess({
    label: "program",
    make: async () => ({ code: await fresh.otherProgramCode() }),
    other: "OK",
    admin: "OK",
  }),
  "programs.join": objectAccess({
    label: "program",
    make: async () => ({ code: await fresh.otherProgramCode() }),
    other: "OK",
    admin: "OK",
  }),
  // Issue 32: a program's assignments are its members'; other users and admins outside it are refused.
  "assignments.create": objectAccess({
    label: "program",
    make: async () => ({
      kind: "study",
      count: 3,
      due: "2099-01-01",
      programId: await fresh.program(),
    }),
    other: "FORBIDDEN",
    admin: "FORBIDDEN",
  }),
  "assignments.list": objectAccess({
    label: "program",
    make: async () => ({ programId: await fresh.program() }),
    other: "FORBIDDEN",
    admin: "FORBIDDEN",
  }),
  "assignments.update": objectAccess({
    label: "assignment",
    make: async () => ({ assignmentId: await fresh.studySet(), closed: true }),
    other: "FORBIDDEN",
    admin: "FORBIDDEN",
  }),
  "assignments.start": objectAccess({
    label: "exam assignment",
    make: async () => ({ assignmentId: await fresh.examAssignment() }),
    other: "FORBIDDEN",
    admin: "FORBIDDEN",
  }),
  "assignments.reserve": objectAccess({
    label: "program question",
    make: async () => ({ questionIds: [await fresh.programQ()], reserved: true }),
    other: "FORBIDDEN",
    admin: "FORBIDDEN",
  }),
  "assignments.open": { kind: "caller" },
  "exams.close": objectAccess({
    label: "mock exam",
    make: async () => ({ code: await fresh.mockCode() }),
    other: "FORBIDDEN",
    admin: "FORBIDDEN",
  }),
};

type AnyCaller = Record<string, Record<string, (input?: unknown) => Promise<unknown>>>;

function call(caller: unknown, path: string, input?: unknown): Promise<unknown> {
  const [area, name] = path.split(".") as [string, string];
  return (caller as AnyCaller)[area]![name]!(input);
}

async function outcomeOf(promise: Promise<unknown>): Promise<string> {
  try {
    return (await promise) === null ? "NULL" : "OK";
  } catch (err) {
    if (err instanceof TRPCError) return err.code;
    throw err;
  }
}

const snapshot = () => databaseSnapshot(h.db.db);

const REFUSED = new Set(["NOT_FOUND", "FORBIDDEN", "UNAUTHORIZED"]);

/** Calls and, when the call is refused, checks that nothing at all was written. */
async function attempt(caller: unknown, path: string, input: unknown): Promise<string> {
  const before = await snapshot();
  const outcome = await outcomeOf(call(caller, path, input));
  if (REFUSED.has(outcome))
    expect([path, "database", await snapshot()]).toEqual([path, "database", before]);
  return outcome;
}

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user(); // the first account is the admin
  owner = await h.user();
  other = await h.user();
  const key = await fresh.key();
  const saved = (await owner.caller.answerKeys.get(key)) as { _id: string };
  secret = {
    privateQ: (
      await addQuestion(h.db.db, owner.user.id, {
        isPublic: false,
        text: `An ${MARKER} question`,
        source: `${MARKER} deck`,
      })
    ).id,
    score: await fresh.score(),
    session: await fresh.session(),
    key: saved._id,
  };
  takedownQ = await fresh.publicQ();
  for (let i = 0; i < 3; i++) {
    const reader = await h.user();
    await reader.caller.reports.create({ questionId: takedownQ, kind: "copyright", comment: "" });
  }
});
afterAll(async () => {
  await h.close();
});

const paths = Object.keys(appRouter._def.procedures).sort();
const procedureType = (path: string) =>
  (appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)[path]!._def
    .type;
const pathsOf = (kind: Access["kind"]) => paths.filter((p) => PROCEDURES[p]?.kind === kind);

describe("every tRPC procedure", () => {
  it("is in the table of this test", () => {
    expect(paths).toEqual(Object.keys(PROCEDURES).sort());
    for (const path of pathsOf("object")) {
      const access = PROCEDURES[path] as Extract<Access, { kind: "object" }>;
      expect([path, access.cases.length > 0]).toEqual([path, true]);
    }
  });

  it("refuses anonymous callers unless public, and writes nothing", async () => {
    const before = await snapshot();
    for (const path of paths) {
      if (PROCEDURES[path]!.kind === "public") continue;
      expect([path, await outcomeOf(call(h.anonymous, path, {}))]).toEqual([path, "UNAUTHORIZED"]);
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses signed-in users on admin procedures, and writes nothing", async () => {
    for (const path of pathsOf("admin")) {
      const access = PROCEDURES[path] as Extract<Access, { kind: "admin" }>;
      const input = access.input?.() ?? {};
      expect([path, await attempt(owner.caller, path, input)]).toEqual([path, "FORBIDDEN"]);
      expect([path, await attempt(other.caller, path, input)]).toEqual([path, "FORBIDDEN"]);
    }
  });

  it("lets admins use every admin procedure", async () => {
    for (const path of pathsOf("admin")) {
      const access = PROCEDURES[path] as Extract<Access, { kind: "admin" }>;
      expect([path, await outcomeOf(call(admin.caller, path, access.input?.()))]).toEqual([
        path,
        "OK",
      ]);
    }
    // setRole really changes the role, both ways.
    const isAdmin = async () =>
      (await admin.caller.admin.users()).find((u) => u.username === other.user.username)?.isAdmin;
    await admin.caller.admin.setRole({ username: other.user.username, isAdmin: true });
    expect(await isAdmin()).toBe(true);
    await admin.caller.admin.setRole({ username: other.user.username, isAdmin: false });
    expect(await isAdmin()).toBe(false);
  });
});

describe("procedures that take the id of someone's object", () => {
  it("answer another user and an admin 404 when invisible, 403 when visible but not theirs, writing nothing", async () => {
    for (const path of pathsOf("object")) {
      for (const c of (PROCEDURES[path] as Extract<Access, { kind: "object" }>).cases) {
        for (const [who, actor, expected] of [
          ["other", other, c.other],
          ["admin", admin, c.admin],
        ] as const) {
          const input = await c.make();
          expect([path, c.label, who, await attempt(actor.caller, path, input)]).toEqual([
            path,
            c.label,
            who,
            expected,
          ]);
        }
      }
    }
    // Two snapshots per call and actor: generous for a loaded machine.
  }, 120_000);

  it("are allowed to the owner", async () => {
    for (const path of pathsOf("object")) {
      for (const c of (PROCEDURES[path] as Extract<Access, { kind: "object" }>).cases) {
        const input = await c.make();
        expect([path, c.label, await outcomeOf(call(owner.caller, path, input))]).toEqual([
          path,
          c.label,
          "OK",
        ]);
      }
    }
  });
});

describe("procedures on the caller's own data", () => {
  it("never show another user's private question, score, session or key", async () => {
    for (const path of pathsOf("caller")) {
      if (procedureType(path) !== "query") continue;
      const access = PROCEDURES[path] as Extract<Access, { kind: "caller" }>;
      let seen = "";
      const outcome = await outcomeOf(
        call(other.caller, path, access.probe).then((r) => (seen = JSON.stringify(r) ?? "")),
      );
      // null (programs.mine of a user in none) says nothing either.
      expect([path, outcome === "NULL" ? "OK" : outcome]).toEqual([path, "OK"]);
      for (const value of [...Object.values(secret), MARKER]) {
        expect([path, seen.includes(value)]).toEqual([path, false]);
      }
    }
  });

  it("the owner does see them (so the check above can fail)", async () => {
    const seen = JSON.stringify([
      await owner.caller.questions.search({ text: MARKER, visibility: "all" }),
      await owner.caller.scores.list(),
      await owner.caller.answerKeys.list(),
      await owner.caller.questions.sources(),
    ]);
    expect(seen).toContain(`${MARKER} deck`);
    expect(seen).toContain(secret.privateQ);
    expect(seen).toContain(secret.score);
    expect(seen).toContain(secret.key);
  });
});

/**
 * REST routes that carry an object id (in the path, or in the body for the two paths whose procedures
 * take one): every path route must be here.
 */
interface RestCase {
  label: string;
  make: () => Promise<{ url: string; payload?: object }>;
  other: number;
  admin: number;
}
/** The same request on a private and on a public question of the owner's. */
function restOnQuestions(
  request: (id: string) => { url: string; payload?: object },
  onPrivate: number,
  onPublic: number,
  kinds = { privateQ: fresh.privateQ, publicQ: fresh.publicQ },
): RestCase[] {
  return [
    {
      label: "private",
      make: async () => request(await kinds.privateQ()),
      other: onPrivate,
      admin: onPrivate,
    },
    {
      label: "public",
      make: async () => request(await kinds.publicQ()),
      other: onPublic,
      admin: onPublic,
    },
  ];
}

/** A request on an object nobody else may see or change: 404 to all but the owner. */
function restOnPrivate(label: string, make: RestCase["make"]): RestCase[] {
  return [{ label, make, other: 404, admin: 404 }];
}

const scoreUrl = async () => `/api/users/prite-scores/${await fresh.score()}`;
const keyUrl = async () => {
  const k = await fresh.key();
  return `/api/answer-keys/${k.part}/${k.year}`;
};

const REST_OBJECT: Record<string, RestCase[]> = {
  "GET /api/questions/:id": restOnQuestions((id) => ({ url: `/api/questions/${id}` }), 404, 200),
  "GET /api/questions/:id/stats": [
    {
      label: "private",
      make: async () => ({ url: `/api/questions/${await fresh.privateQ()}/stats` }),
      other: 404,
      admin: 404,
    },
    {
      label: "public",
      make: async () => ({ url: `/api/questions/${await fresh.publicQ()}/stats` }),
      other: 403,
      admin: 200,
    },
  ],
  "PUT /api/questions/:id": [
    ...restOnQuestions((id) => ({ url: `/api/questions/${id}`, payload: { text: "x" } }), 404, 403),
    ...[false, true].map((isPublic) => ({
      label: isPublic ? "public flashcard" : "private flashcard",
      make: async () => ({
        url: `/api/questions/${await fresh.flashcard(isPublic)}`,
        payload: { back: "x" },
      }),
      other: isPublic ? 403 : 404,
      admin: isPublic ? 403 : 404,
    })),
  ],
  "DELETE /api/questions/:id": restOnQuestions((id) => ({ url: `/api/questions/${id}` }), 404, 403),
  // Issue 36 item 4: admins read a public question's history but never restore.
  "GET /api/questions/:id/history": restOnQuestions(
    (id) => ({ url: `/api/questions/${id}/history` }),
    404,
    403,
  ).map((c) => (c.label === "public" ? { ...c, admin: 200 } : c)),
  "POST /api/questions/:id/history/:version/restore": restOnQuestions(
    (id) => ({ url: `/api/questions/${id}/history/1/restore`, payload: {} }),
    404,
    403,
    edited,
  ),
  "PATCH /api/questions/:id/study": restOnQuestions(
    (id) => ({ url: `/api/questions/${id}/study`, payload: { difficulty: 1 } }),
    404,
    200,
  ),
  "POST /api/questions/:id/flashcard-rating": restOnQuestions(
    (id) => ({ url: `/api/questions/${id}/flashcard-rating`, payload: { rating: "hard" } }),
    404,
    200,
    flashcards,
  ),
  "GET /api/questions/:id/next-intervals": restOnQuestions(
    (id) => ({ url: `/api/questions/${id}/next-intervals` }),
    404,
    200,
    flashcards,
  ),
  "GET /api/users/prite-scores/:id": restOnPrivate("score", async () => ({
    url: await scoreUrl(),
  })),
  "PUT /api/users/prite-scores/:id": restOnPrivate("score", async () => ({
    url: await scoreUrl(),
    payload: { year: 2024, overallPercentile: 1 },
  })),
  "DELETE /api/users/prite-scores/:id": restOnPrivate("score", async () => ({
    url: await scoreUrl(),
  })),
  "GET /api/answer-keys/:part/:year": restOnPrivate("key", async () => ({ url: await keyUrl() })),
  "DELETE /api/answer-keys/:part/:year": restOnPrivate("key", async () => ({
    url: await keyUrl(),
  })),
  "POST /api/answer-keys/:part/:year/apply": restOnPrivate("key", async () => ({
    url: `${await keyUrl()}/apply`,
    payload: {},
  })),
  "POST /api/questions/bulk": restOnQuestions(
    (id) => ({ url: "/api/questions/bulk", payload: { questions: [bulkItem(id)] } }),
    404,
    403,
  ),
  "POST /api/explanation/save": restOnQuestions(
    (questionId) => ({
      url: "/api/explanation/save",
      payload: { questionId, explanation: "mine now" },
    }),
    404,
    403,
  ),
  // Issue 16: exams are their taker's alone; a mock exam's results its creator's and admins'.
  ...examRoutes(),
  ...programRoutes(),
  "GET /api/programs/:id/report": [
    {
      label: "program",
      make: async () => ({ url: `/api/programs/${await fresh.directedProgram()}/report` }),
      other: 403,
      admin: 403,
    },
  ],
  // Issue 36: reports (see the procedures' table).
  "POST /api/questions/:id/reports": restOnQuestions(
    (id) => ({ url: `/api/questions/${id}/reports`, payload: { kind: "outdated", comment: "" } }),
    404,
    201,
  ),
  "POST /api/reports/:id/resolve": (
    [
      ["private", 404, 404],
      ["public", 404, 200],
      ["by other", 403, 200],
    ] as const
  ).map(([on, otherStatus, adminStatus]) => ({
    label: `report on a ${on} question`,
    make: async () => ({
      url: `/api/reports/${await fresh.report(on)}/resolve`,
      payload: { outcome: "fixed", note: "Corrected" },
    }),
    other: otherStatus,
    admin: adminStatus,
  })),
  // Issue 17: an image, to those who can see a question showing it.
  "GET /api/media/:sha256": [
    {
      label: "on a private question",
      make: async () => ({ url: `/api/media/${await fresh.image(false)}` }),
      other: 404,
      admin: 404,
    },
    {
      label: "on a public question",
      make: async () => ({ url: `/api/media/${await fresh.image(true)}` }),
      other: 200,
      admin: 200,
    },
  ],
};

function examRoutes(): Record<string, RestCase[]> {
  const running = async (suffix = "", payload?: (questionId: string) => object) => {
    const { examId, questionId } = await fresh.exam();
    return { url: `/api/exams/${examId}${suffix}`, payload: payload?.(questionId) };
  };
  const finished = async (suffix: string) => ({
    url: `/api/exams/${await fresh.finishedExam()}${suffix}`,
  });
  const mock = (suffix: string, other: number, admin: number): RestCase[] => [
    {
      label: "mock exam",
      make: async () => ({
        url: `/api/exams/mocks/${await fresh.mockCode()}${suffix}`,
        payload: {},
      }),
      other,
      admin,
    },
  ];
  return {
    "GET /api/exams/:id": restOnPrivate("exam", () => running()),
    "DELETE /api/exams/:id": restOnPrivate("exam", () => running()),
    "POST /api/exams/:id/answer": restOnPrivate("exam", () =>
      running("/answer", (questionId) => ({ questionId, selected: ["B"] })),
    ),
    "POST /api/exams/:id/flag": restOnPrivate("exam", () =>
      running("/flag", (questionId) => ({ questionId, flagged: true })),
    ),
    "POST /api/exams/:id/eliminate": restOnPrivate("exam", () =>
      running("/eliminate", (questionId) => ({ questionId, eliminated: ["A"] })),
    ),
    "POST /api/exams/:id/submit": restOnPrivate("exam", () => running("/submit", () => ({}))),
    "POST /api/exams/:id/share": restOnPrivate("exam", async () => {
      await fresh.publicQ();
      return running("/share", () => ({}));
    }),
    "GET /api/exams/:id/report": restOnPrivate("exam", () => finished("/report")),
    "GET /api/exams/:id/review": restOnPrivate("exam", () => finished("/review")),
    "POST /api/exams/:id/study-incorrect": restOnPrivate("exam", async () => ({
      ...(await finished("/study-incorrect")),
      payload: {},
    })),
    "GET /api/exams/mocks/:code/results": mock("/results", 403, 200).map((c) => ({
      ...c,
      make: async () => ({ url: (await c.make()).url }),
    })),
    "POST /api/exams/mocks/:code/close": mock("/close", 403, 403),
    // Issue 32: a program's assignments, refused to users outside it.
    "GET /api/programs/:id/assignments": [
      {
        label: "program",
        make: async () => ({ url: `/api/programs/${await fresh.program()}/assignments` }),
        other: 403,
        admin: 403,
      },
    ],
    "POST /api/programs/:id/assignments": [
      {
        label: "program",
        make: async () => ({
          url: `/api/programs/${await fresh.program()}/assignments`,
          payload: { kind: "study", count: 3, due: "2099-01-01" },
        }),
        other: 403,
        admin: 403,
      },
    ],
    "PATCH /api/programs/:id/assignments/:assignmentId": [
      {
        label: "assignment",
        make: async () => ({
          url: `/api/programs/${await fresh.program()}/assignments/${await fresh.studySet()}`,
          payload: { closed: true },
        }),
        other: 403,
        admin: 403,
      },
    ],
  };
}

/** Issue 32: a program's routes answer 404 to everyone but its members, admins included. */
function programRoutes(): Record<string, RestCase[]> {
  const program = async (suffix = "", payload?: object) => ({
    url: `/api/programs/${await fresh.program()}${suffix}`,
    payload,
  });
  const member = async (payload?: object) => {
    const { id, userId } = await fresh.programMember();
    return { url: `/api/programs/${id}/members/${userId}`, payload };
  };
  return {
    "GET /api/programs/:id": restOnPrivate("program", () => program()),
    "PATCH /api/programs/:id": restOnPrivate("program", () => program("", { name: "Renamed" })),
    "POST /api/programs/:id/code": restOnPrivate("program", () => program("/code", {})),
    "GET /api/programs/:id/members": restOnPrivate("program", () => program("/members")),
    "POST /api/programs/:id/leave": restOnPrivate("program", async () => ({
      url: `/api/programs/${await fresh.leavableProgram()}/leave`,
      payload: {},
    })),
    "PATCH /api/programs/:id/members/:userId": restOnPrivate("program member", () =>
      member({ role: "director" }),
    ),
    "DELETE /api/programs/:id/members/:userId": restOnPrivate("program member", () => member()),
  };
}

/** REST routes that answer without a session. */
const PUBLIC_REST = new Set([
  "GET /api/health",
  "GET /api/ready",
  "POST /api/auth/register",
  "POST /api/auth/login",
  "POST /api/auth/forgot-password",
  "POST /api/auth/reset-password",
  // Sign-in with the institution's account (issue 33): before there is a session; features/auth/sso.test.ts.
  ...["GET start", "GET callback", "GET pending", "POST complete", "POST link"].map((r) =>
    r.replace(" ", " /api/auth/oidc/"),
  ),
]);
const ADMIN_REST = /^\/api\/admin\//;
/** What an admin sends to the admin routes that take a body. */
const ADMIN_REST_PAYLOAD: Record<string, () => object> = {
  "POST /api/admin/users/reset-link": () => ({ username: other.user.username }),
};

describe("every REST route", () => {
  const fill = (url: string) =>
    url
      .replace(":part", "1")
      .replace(":year", "2024")
      .replace(":code", "ABCDEFGH")
      .replace(":sha256", "0".repeat(64))
      .replace(":userId", "00000000-0000-4000-8000-000000000001")
      .replace(":version", "1")
      .replace(":id", "00000000-0000-4000-8000-000000000000");
  const apiRoutes = async () =>
    (await h.app()).routeTable.filter(
      (r) => r.url.startsWith("/api/") && r.method !== "HEAD" && r.method !== "OPTIONS",
    );

  it("answers 401 without a session unless public, 403 to non-admins on admin routes, and writes nothing", async () => {
    const app = await h.app();
    const routes = await apiRoutes();
    expect(routes.length).toBeGreaterThan(30);
    const before = await snapshot();
    for (const { method, url } of routes) {
      const key = `${method} ${url}`;
      const anonymous = await app.inject({
        method: method as "GET",
        url: fill(url),
        payload: method === "GET" || method === "DELETE" ? undefined : {},
      });
      if (PUBLIC_REST.has(key)) {
        expect([key, anonymous.statusCode]).not.toEqual([key, 401]);
        continue;
      }
      expect([key, anonymous.statusCode]).toEqual([key, 401]);
      expect(anonymous.json()).toHaveProperty("message");
      if (ADMIN_REST.test(url)) {
        const asUser = await app.inject({
          method: method as "GET",
          url: fill(url),
          headers: owner.headers,
        });
        expect([key, asUser.statusCode]).toEqual([key, 403]);
        // An admin's call that writes is made after the check that nothing was written.
        if (ADMIN_REST_PAYLOAD[key]) continue;
        const asAdmin = await app.inject({
          method: method as "GET",
          url: fill(url),
          headers: admin.headers,
        });
        expect([key, asAdmin.statusCode]).toEqual([key, 200]);
      }
    }
    // Registering with an empty body is refused too: nothing may have been written.
    expect(await snapshot()).toBe(before);
    for (const [key, payload] of Object.entries(ADMIN_REST_PAYLOAD)) {
      const [method, url] = key.split(" ") as ["POST", string];
      const asAdmin = await app.inject({ method, url, headers: admin.headers, payload: payload() });
      expect([key, asAdmin.statusCode]).toEqual([key, 200]);
    }
  });

  it("has every route with an id in its path in the table of this test", async () => {
    const withIds = (await apiRoutes())
      .filter((r) => r.url.includes(":"))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(withIds).toEqual(
      Object.keys(REST_OBJECT)
        .filter((k) => k.includes(":"))
        .sort(),
    );
    const all = new Set((await apiRoutes()).map((r) => `${r.method} ${r.url}`));
    for (const key of Object.keys(REST_OBJECT)) expect([key, all.has(key)]).toEqual([key, true]);
  });

  it("answers another user and an admin 404 or 403 on the owner's objects, writing nothing; the owner succeeds", async () => {
    const app = await h.app();
    for (const [key, cases] of Object.entries(REST_OBJECT)) {
      const method = key.split(" ")[0] as "GET";
      for (const c of cases) {
        for (const [who, actor, expected] of [
          ["other", other, c.other],
          ["admin", admin, c.admin],
        ] as const) {
          const { url, payload } = await c.make();
          const before = await snapshot();
          const res = await app.inject({ method, url, payload, headers: actor.headers });
          expect([key, c.label, who, res.statusCode]).toEqual([key, c.label, who, expected]);
          if (expected >= 400) {
            expect(res.json()).toHaveProperty("message");
            expect([key, c.label, who, await snapshot()]).toEqual([key, c.label, who, before]);
          }
        }
        const { url, payload } = await c.make();
        const mine = await app.inject({ method, url, payload, headers: owner.headers });
        expect([key, c.label, "owner", mine.statusCode < 300]).toEqual([
          key,
          c.label,
          "owner",
          true,
        ]);
      }
    }
    // Two requests and two snapshots per case and actor: generous for a loaded machine.
  }, 120_000);
});
