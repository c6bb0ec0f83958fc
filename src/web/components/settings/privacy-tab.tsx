import { ShieldCheck } from "lucide-react";
import { useRef, useState } from "react";
import { useBanner } from "@/web/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Label } from "@/web/components/ui/label";
import { Switch } from "@/web/components/ui/switch";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { ScoreSharingToggle } from "@/web/components/programs/score-sharing-toggle";

type Settings = { shareUsageData: boolean; publicProfile: boolean };

const TOGGLES: { key: keyof Settings; label: string; description: string }[] = [
  {
    key: "shareUsageData",
    label: "Share Anonymous Usage Data",
    description:
      "Count your study results, without your name, in the performance rankings other users see.",
  },
  {
    key: "publicProfile",
    label: "Public Profile",
    description: "Make your contributions visible to other users",
  },
];

/** Settings › Privacy (docs/product/screens.md and states.md): toggles apply at once and are put back if the save fails. */
export function PrivacyTab() {
  const user = useSessionUser();
  const utils = trpc.useUtils();
  const save = trpc.users.updateSettings.useMutation();
  const { show, banner } = useBanner();
  const [settings, setSettings] = useState<Settings>(user.settings);
  // The last state the server confirmed; a failed save returns to it.
  const confirmed = useRef<Settings>(user.settings);

  const toggle = async (key: keyof Settings, value: boolean) => {
    const next = { ...settings, [key]: value };
    setSettings(next);
    try {
      const result = await save.mutateAsync({ settings: next });
      confirmed.current = result.user.settings;
      utils.auth.me.setData(undefined, result.user);
      show("success", result.message || "Settings updated successfully");
    } catch (error) {
      setSettings(confirmed.current);
      show("error", errorMessage(error, "Failed to update settings"));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Privacy</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {banner}
        {TOGGLES.map(({ key, label, description }) => (
          <div key={key} className="flex items-start justify-between gap-4">
            <div className="flex flex-col gap-1">
              <Label htmlFor={`privacy-${key}`}>{label}</Label>
              <p id={`privacy-${key}-description`} className="text-sm text-muted-foreground">
                {description}
              </p>
            </div>
            <Switch
              id={`privacy-${key}`}
              checked={settings[key]}
              disabled={save.isPending}
              aria-describedby={`privacy-${key}-description`}
              onCheckedChange={(value) => void toggle(key, value)}
            />
          </div>
        ))}
        <ScoreSharingToggle />
        <section className="flex gap-3 rounded-md border bg-muted/40 p-4">
          <ShieldCheck className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
          <div className="flex flex-col gap-1">
            <h3 className="font-medium">About Your Data</h3>
            <p className="text-sm text-muted-foreground">
              Your data is stored on this PRITE Study server and is not shared with third parties.
              With Public Profile off, your questions show as &apos;Anonymous&apos; and new ones
              start private; with it on, your username is shown on your public questions and new
              questions start public.
            </p>
          </div>
        </section>
      </CardContent>
    </Card>
  );
}
