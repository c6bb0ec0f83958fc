/** What the audit log records (issue 33, decision 340), and how the Admin page names each kind. */
export const AUDIT_KIND_LABELS = {
  "sign_in.new_device": "Sign-in from a new device",
  "password_reset.requested": "Password reset requested",
  "password_reset.link_created": "Reset link made by an admin",
  "password_reset.completed": "Password reset completed",
  "role.changed": "Role changed",
  "account.deleted": "Account deleted",
  "import.committed": "Questions imported",
  "backup.taken": "Backup taken",
  "backup.restored": "Backup restored",
  // Residency programs (issue 32, docs/product/programs.md).
  "program.created": "Program created",
  "program.joined": "Joined a program",
  "program.left": "Left a program",
  "program.role_changed": "Program role changed",
  "program.member_removed": "Removed from a program",
  "program.code_renewed": "Program join code renewed",
  // Reports on questions (issue 36, docs/product/reports.md).
  "question.taken_down": "Question taken down for copyright",
  "question.takedown_decided": "Takedown decided",
} as const;

export type AuditKind = keyof typeof AUDIT_KIND_LABELS;
export const AUDIT_KINDS = Object.keys(AUDIT_KIND_LABELS) as [AuditKind, ...AuditKind[]];
