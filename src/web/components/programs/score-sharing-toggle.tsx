import { useBanner } from "@/web/components/ui/alert";
import { Label } from "@/web/components/ui/label";
import { Switch } from "@/web/components/ui/switch";
import { errorMessage, trpc } from "@/web/lib/trpc";

/** Whether the resident's PRITE scores reach their program's dashboard: off until they turn it on. */
export function ScoreSharingToggle() {
  const utils = trpc.useUtils();
  const sharing = trpc.users.scoreSharing.useQuery();
  const save = trpc.users.setScoreSharing.useMutation({
    onSuccess: (data) => {
      utils.users.scoreSharing.setData(undefined, data);
      void utils.programReport.mine.invalidate();
    },
  });
  const { show, banner } = useBanner();
  const checked = sharing.data?.shareScoresWithProgram ?? false;
  return (
    <div className="flex flex-col gap-2">
      {banner}
      <div className="flex items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor="share-scores-program">Share PRITE Scores with My Program</Label>
          <p id="share-scores-program-description" className="text-sm text-muted-foreground">
            Your program&apos;s directors see your PRITE percentiles in their class averages only
            while this is on. Off by default.
          </p>
        </div>
        <Switch
          id="share-scores-program"
          checked={checked}
          disabled={sharing.isPending || save.isPending}
          aria-describedby="share-scores-program-description"
          onCheckedChange={(value) =>
            void save.mutateAsync({ share: value }).then(
              () =>
                show(
                  "success",
                  value
                    ? "Your scores are shared with your program"
                    : "Your scores are no longer shared",
                ),
              (error: unknown) =>
                show("error", errorMessage(error, "Failed to update score sharing")),
            )
          }
        />
      </div>
    </div>
  );
}
