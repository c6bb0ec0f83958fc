import type { RestCall } from "./call";
import { arr, bool, dict, named, nullable, num, obj, str } from "./shape";

const FieldChange = obj({ field: str, label: str, before: str, after: str });

/** A question's edit history (issue 36 item 4, docs/product/history.md). */
export const QuestionHistory = named(
  "QuestionHistory",
  obj({
    questionId: str,
    canRestore: bool,
    versions: arr(
      obj({
        version: num,
        at: str,
        editor: nullable(obj({ id: str, username: str })),
        restoredFrom: nullable(num),
        current: bool,
        changes: arr(FieldChange),
        snapshot: obj({
          text: str,
          options: dict(str),
          correctAnswer: str,
          correctAnswers: arr(str),
          explanation: str,
          category: str,
          visibility: str,
        }),
      }),
    ),
  }),
);

export const HISTORY_CALLS: readonly RestCall[] = [
  {
    method: "GET",
    path: "/api/questions/:id/history",
    spec: false,
    access: "user",
    request:
      "— (the question's owner; the directors of its program for a program question; admins for a public question). Versions newest first, each with who, when and the changes from the one before",
    status: 200,
    response: QuestionHistory,
  },
  {
    method: "POST",
    path: "/api/questions/:id/history/:version/restore",
    spec: false,
    access: "user",
    request:
      "— (the owner; a director for a program question). The version's content becomes the question's again, as a new version; visibility stays",
    status: 200,
    response: obj({ message: str, history: QuestionHistory }),
  },
];
