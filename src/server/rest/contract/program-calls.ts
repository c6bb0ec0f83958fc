import type { RestCall } from "./call";
import { arr, bool, named, nullable, num, obj, str } from "./shape";

/** A program as its member reads it; code, links and thresholds are null for residents. */
export const Program = named(
  "Program",
  obj({
    id: str,
    name: str,
    institution: str,
    createdAt: str,
    role: str,
    joinedAt: nullable(str),
    memberCount: num,
    directorCount: num,
    code: nullable(str),
    joinPath: nullable(str),
    joinUrl: nullable(str),
    inactiveDays: nullable(num),
    accuracyFlag: nullable(num),
  }),
);

const Members = obj({
  roster: str,
  members: arr(
    obj({
      userId: str,
      username: str,
      displayName: str,
      pgyLevel: str,
      pgyLabel: str,
      role: str,
      joinedAt: nullable(str),
    }),
  ),
  classes: arr(obj({ pgyLevel: str, pgyLabel: str, residents: num })),
});

// Residency programs (issue 32, rest/programs.ts, docs/product/programs.md).
export const PROGRAM_CALLS: readonly RestCall[] = [
  {
    method: "GET",
    path: "/api/programs",
    spec: false,
    access: "user",
    request: "— (the caller's program: a list of none or one, admins included)",
    status: 200,
    response: arr(Program),
  },
  {
    method: "POST",
    path: "/api/programs",
    spec: false,
    access: "user",
    request: "{name, institution?}: the caller becomes its first director; 409 when already in one",
    status: 201,
    response: Program,
  },
  {
    method: "POST",
    path: "/api/programs/join",
    spec: false,
    access: "user",
    request: "{code}: joins as a resident; 404 for an unknown code, 409 when already in a program",
    status: 200,
    response: Program,
  },
  {
    method: "GET",
    path: "/api/programs/:id",
    spec: false,
    access: "user",
    request: "— (members only; 404 to everyone else)",
    status: 200,
    response: Program,
  },
  {
    method: "PATCH",
    path: "/api/programs/:id",
    spec: false,
    access: "user",
    request: "{name?, institution?, inactiveDays? 1-365, accuracyFlag? 0-1} (directors)",
    status: 200,
    response: Program,
  },
  {
    method: "POST",
    path: "/api/programs/:id/leave",
    spec: false,
    access: "user",
    request:
      "—; 409 for the only director while others remain; the last member leaving deletes the program",
    status: 200,
    response: obj({ left: bool, programDeleted: bool }),
  },
  {
    method: "POST",
    path: "/api/programs/:id/code",
    spec: false,
    access: "user",
    request: "— (directors): a new join code; the old one stops working",
    status: 200,
    response: Program,
  },
  {
    method: "GET",
    path: "/api/programs/:id/members",
    spec: false,
    access: "user",
    request: "— (directors see every member; residents the directors and class sizes)",
    status: 200,
    response: Members,
  },
  {
    method: "PATCH",
    path: "/api/programs/:id/members/:userId",
    spec: false,
    access: "user",
    request: "{role: director | resident} (directors); 409 when it would leave no director",
    status: 200,
    response: obj({ userId: str, role: str, changed: bool }),
  },
  {
    method: "DELETE",
    path: "/api/programs/:id/members/:userId",
    spec: false,
    access: "user",
    request: "— (directors): the member's access ends at once",
    status: 200,
    response: obj({ removed: bool, userId: str }),
  },
  {
    method: "GET",
    path: "/api/admin/programs",
    spec: false,
    access: "admin",
    request: "— (every program with its member counts and directors)",
    status: 200,
    response: arr(
      obj({
        id: str,
        name: str,
        institution: str,
        createdAt: str,
        memberCount: num,
        residentCount: num,
        directors: arr(str),
      }),
    ),
  },
];
