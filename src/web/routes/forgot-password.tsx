import { createFileRoute } from "@tanstack/react-router";
import { ForgotPasswordPage } from "@/web/components/auth/forgot-password-page";

export const Route = createFileRoute("/forgot-password")({
  head: () => ({ meta: [{ title: "Forgot Password · PRITE Study" }] }),
  component: ForgotPasswordPage,
});
