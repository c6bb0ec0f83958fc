import { index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * An institution's account (issue 33): the OpenID provider's subject, unique only together with the
 * issuer that assigned it, linked to one of our users. An account may be linked to several.
 */
export const oidcIdentities = pgTable(
  "oidc_identities",
  {
    issuer: text().notNull(),
    subject: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The email the provider gave when the link was made, for an admin reading the table.
    email: text().notNull().default(""),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.issuer, t.subject] }),
    index("oidc_identities_user_id_idx").on(t.userId),
  ],
);

export type OidcIdentityRow = typeof oidcIdentities.$inferSelect;
