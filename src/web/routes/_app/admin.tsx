import { createFileRoute, redirect } from "@tanstack/react-router";
import { AdminPage } from "@/web/components/admin/admin-page";
import { RequiresConnection } from "@/web/components/layout/needs-connection";

export const Route = createFileRoute("/_app/admin")({
  beforeLoad: ({ context }) => {
    if (!context.user.isAdmin) throw redirect({ to: "/", replace: true });
  },
  head: () => ({ meta: [{ title: "Admin Dashboard · PRITE Study" }] }),
  component: () => (
    <RequiresConnection title="Admin Dashboard" what="The admin dashboard">
      <AdminPage />
    </RequiresConnection>
  ),
});
