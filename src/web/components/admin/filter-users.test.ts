import { describe, expect, it } from "vitest";
import { ALL_LEVELS, filterUsers, type AdminUser } from "./filter-users";

const user = (username: string, email: string, pgyLevel: string): AdminUser => ({
  _id: username,
  username,
  email,
  pgyLevel,
  createdAt: "2025-01-01T00:00:00.000Z",
  lastLogin: null,
  questionsAdded: 0,
  isAdmin: false,
});

const users = [
  user("alice", "alice@hospital.org", "1"),
  user("Bob", "bob@clinic.org", "Fellow"),
  user("carol", "c.smith@hospital.org", ""),
];

describe("Admin user list filter", () => {
  it("matches username or email, ignoring case and surrounding spaces", () => {
    expect(filterUsers(users, "  BOB ", ALL_LEVELS).map((u) => u.username)).toEqual(["Bob"]);
    expect(filterUsers(users, "hospital", ALL_LEVELS).map((u) => u.username)).toEqual([
      "alice",
      "carol",
    ]);
    expect(filterUsers(users, "", ALL_LEVELS)).toHaveLength(3);
  });

  it("applies the PGY filter together with the search", () => {
    expect(filterUsers(users, "", "Fellow").map((u) => u.username)).toEqual(["Bob"]);
    expect(filterUsers(users, "hospital", "1").map((u) => u.username)).toEqual(["alice"]);
    expect(filterUsers(users, "nobody", ALL_LEVELS)).toEqual([]);
  });
});
