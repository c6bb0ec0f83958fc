import { useState } from "react";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/web/components/ui/card";
import { Label } from "@/web/components/ui/label";
import { Textarea } from "@/web/components/ui/textarea";
import { errorMessage, trpc } from "@/web/lib/trpc";

/**
 * Directors reserve program questions for assessments, or release them, by id (decision 358): ids
 * separated by commas, spaces or lines, as Browse and `prite export questions --json` show them.
 */
export function ReserveCard() {
  const [ids, setIds] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const reserve = trpc.assignments.reserve.useMutation({
    onSuccess: (r) =>
      setDone(
        `${r.reserved ? "Reserved" : "Released"} ${r.updated} question${r.updated === 1 ? "" : "s"}.`,
      ),
  });
  const send = (reserved: boolean) => {
    setDone(null);
    reserve.mutate({ questionIds: ids.split(/[\s,]+/).filter(Boolean), reserved });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Reserved for assessments</CardTitle>
        <p className="text-sm text-muted-foreground">
          Reserved questions of your program&apos;s bank stay out of residents&apos; Browse, Study,
          search and exports until you release them; they still appear in the exams you assign.
        </p>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="grid gap-1">
          <Label htmlFor="reserve-ids">Question ids</Label>
          <Textarea
            id="reserve-ids"
            rows={3}
            value={ids}
            onChange={(e) => setIds(e.target.value)}
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button disabled={reserve.isPending || !ids.trim()} onClick={() => send(true)}>
            Reserve
          </Button>
          <Button
            variant="outline"
            disabled={reserve.isPending || !ids.trim()}
            onClick={() => send(false)}
          >
            Release
          </Button>
        </div>
        {reserve.isError && (
          <Alert type="error" autoCloseMs={null}>
            {errorMessage(reserve.error, "Could not change the questions")}
          </Alert>
        )}
        {done && <Alert type="success">{done}</Alert>}
      </CardContent>
    </Card>
  );
}
