import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { PageHeader } from "@/web/components/layout/page-header";
import { ScoresOnboarding } from "@/web/components/scores/scores-onboarding";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { useSessionUser } from "@/web/lib/session";
import { AccountTab } from "./account-tab";
import { DataTab } from "./data-tab";
import { PriteScoresTab } from "./prite-scores-tab";
import { PrivacyTab } from "./privacy-tab";
import { ProfileTab } from "./profile-tab";
import { SETTINGS_TABS, isSettingsTab, type SettingsTab } from "./settings-tabs";
import { DailyLimits } from "./daily-limits";
import { StudyTab } from "./study-tab";
import { ExamPlanSettings } from "./exam-plan-settings";

interface SettingsPageProps {
  tab: SettingsTab;
  /** The route keeps the tab in the URL, so a link such as ?tab=prite-scores opens it. */
  onTabChange: (tab: SettingsTab) => void;
  /** Arrived straight from registration: offer the PRITE scores form, once (decision 041). */
  onboarding?: boolean;
}

export function SettingsPage({ tab, onTabChange, onboarding = false }: SettingsPageProps) {
  const user = useSessionUser();
  const navigate = useNavigate();
  // Decided once on arrival: offering it marks it offered, which must not close it mid-form.
  const [offering, setOffering] = useState(() => onboarding && !user.scoresOnboardingOffered);

  if (offering) {
    return (
      <>
        <PageHeader title="Your PRITE Scores" />
        <ScoresOnboarding
          onDone={() => {
            setOffering(false);
            void navigate({ to: "/", replace: true });
          }}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader title="Settings" />
      <Tabs value={tab} onValueChange={(value) => isSettingsTab(value) && onTabChange(value)}>
        <TabsList aria-label="Settings sections">
          {SETTINGS_TABS.map(({ value, label }) => (
            <TabsTrigger key={value} value={value}>
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab />
        </TabsContent>
        <TabsContent value="data">
          <DataTab />
        </TabsContent>
        <TabsContent value="privacy">
          <PrivacyTab />
        </TabsContent>
        <TabsContent value="study">
          <StudyTab />
          <DailyLimits />
          <ExamPlanSettings />
        </TabsContent>
        <TabsContent value="prite-scores">
          <PriteScoresTab />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab />
        </TabsContent>
      </Tabs>
    </>
  );
}
