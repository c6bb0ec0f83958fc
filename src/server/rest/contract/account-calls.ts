import type { RestCall } from "./call";
import { arr, bool, nullable, obj, str } from "./shape";

// Accounts: password recovery and the account's sessions (rest/password-reset.ts, decision 325).
export const ACCOUNT_CALLS: readonly RestCall[] = [
  {
    method: "POST",
    path: "/api/auth/forgot-password",
    spec: false,
    access: "public",
    request:
      "{email}; the same answer whether or not an account has it. 503 when the server sends no mail.",
    status: 200,
    response: obj({ success: bool, message: str }),
  },
  {
    method: "POST",
    path: "/api/auth/reset-password",
    spec: false,
    access: "public",
    request: "{token, password}: the token of the link; every session of the account ends.",
    status: 200,
    response: obj({ success: bool, message: str }),
  },
  {
    method: "GET",
    path: "/api/auth/sessions",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: arr(obj({ device: str, createdAt: str, lastUsedAt: str, current: bool })),
  },
  {
    method: "POST",
    path: "/api/auth/sessions/sign-out-others",
    spec: false,
    access: "user",
    request: "—",
    status: 200,
    response: obj({ success: bool }),
  },
  {
    method: "POST",
    path: "/api/admin/users/reset-link",
    spec: false,
    access: "admin",
    request: "{username}: a one-time link valid 24 hours; `url` is null without PUBLIC_URL.",
    status: 200,
    response: obj({ username: str, path: str, url: nullable(str), expiresAt: str }),
  },
];
