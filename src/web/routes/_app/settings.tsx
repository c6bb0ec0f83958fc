import { createFileRoute } from "@tanstack/react-router";
import { SettingsPage } from "@/web/components/settings/settings-page";
import {
  DEFAULT_SETTINGS_TAB,
  isSettingsTab,
  type SettingsTab,
} from "@/web/components/settings/settings-tabs";

interface SettingsSearch {
  tab?: SettingsTab;
  /** Set by the register flow: offer the PRITE scores form once. */
  onboarding?: boolean;
}

export const Route = createFileRoute("/_app/settings")({
  // An unknown ?tab= falls back to Profile instead of an error page. The key is always returned:
  // the router keeps raw search values that validation leaves out.
  validateSearch: (search: Record<string, unknown>): SettingsSearch => ({
    tab: isSettingsTab(search.tab) ? search.tab : undefined,
    onboarding: search.onboarding === true || search.onboarding === "true" ? true : undefined,
  }),
  head: () => ({ meta: [{ title: "Settings · PRITE Study" }] }),
  component: SettingsRoute,
});

function SettingsRoute() {
  const { tab, onboarding } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SettingsPage
      tab={tab ?? DEFAULT_SETTINGS_TAB}
      onboarding={onboarding === true}
      onTabChange={(next) => void navigate({ search: { tab: next }, replace: true })}
    />
  );
}
