/** The Settings tabs in display order; the value is the `?tab=` of the URL. */
export const SETTINGS_TABS = [
  { value: "profile", label: "Profile" },
  { value: "data", label: "Data Management" },
  { value: "privacy", label: "Privacy" },
  { value: "study", label: "Study" },
  { value: "prite-scores", label: "PRITE Scores" },
  { value: "account", label: "Account" },
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number]["value"];

export const DEFAULT_SETTINGS_TAB: SettingsTab = "profile";

export function isSettingsTab(value: unknown): value is SettingsTab {
  return SETTINGS_TABS.some((tab) => tab.value === value);
}
