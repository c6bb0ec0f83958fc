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
} as const;

export type AuditKind = keyof typeof AUDIT_KIND_LABELS;
export const AUDIT_KINDS = Object.keys(AUDIT_KIND_LABELS) as [AuditKind, ...AuditKind[]];
