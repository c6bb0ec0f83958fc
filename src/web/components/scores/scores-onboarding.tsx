import { useEffect, useRef } from "react";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { trpc } from "@/web/lib/trpc";
import { PriteScoreForm } from "./score-form";

interface ScoresOnboardingProps {
  /** Save (after its 1.5 s message) or Skip: leave for the app. */
  onDone: () => void;
}

/**
 * Offered once, right after registration (decision 041): the PRITE scores form with a way out.
 * Showing it is what counts as offering it, so a reload or a later visit never shows it again.
 */
export function ScoresOnboarding({ onDone }: ScoresOnboardingProps) {
  const utils = trpc.useUtils();
  const mark = trpc.users.markScoresOnboardingOffered.useMutation();
  const marked = useRef(false);
  const { mutate } = mark;

  useEffect(() => {
    if (marked.current) return;
    marked.current = true;
    mutate(undefined, {
      onSuccess: (result) => utils.auth.me.setData(undefined, result.user),
    });
  }, [mutate, utils]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Welcome to PRITE Study!</CardTitle>
        <CardDescription>
          Add your PRITE percentile scores to follow your progress from year to year. You can skip
          this and add them later under Settings › PRITE Scores.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <PriteScoreForm
          onComplete={onDone}
          secondaryAction={
            <Button variant="outline" onClick={onDone}>
              Skip for now
            </Button>
          }
        />
      </CardContent>
    </Card>
  );
}
