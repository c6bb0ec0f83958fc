import { Alert } from "@/web/components/ui/alert";
import { PageHeader } from "@/web/components/layout/page-header";
import { useSessionUser } from "@/web/lib/session";
import { AdminDashboard } from "./admin-dashboard";
import { AuditLogCard } from "./audit-log-card";
import { MockExamsCard } from "./mock-exams-card";
import { ProgramsCard } from "./programs-card";

export function AdminPage() {
  const user = useSessionUser();
  // The route already sends non-admins home; this covers a demotion while the page is open.
  if (!user.isAdmin) {
    return (
      <Alert type="error" dismissible={false} autoCloseMs={null}>
        You do not have permission to access this page.
      </Alert>
    );
  }
  return (
    <>
      <PageHeader title="Admin Dashboard" />
      <AdminDashboard />
      <ProgramsCard />
      <MockExamsCard />
      <AuditLogCard />
    </>
  );
}
