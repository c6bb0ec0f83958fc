import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { LineChart, Target, TrendingUp, Users } from "lucide-react";
import { PageHeader } from "@/web/components/layout/page-header";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { AnkiImport } from "./anki-import";
import { BulkImport } from "./bulk-import";
import type { ImportTab } from "./import-tabs";

/** docs/product/screens.md 'Import screen (/import), three tabs'. */
export function ImportPage({ initialTab = "bulk" }: { initialTab?: ImportTab }) {
  // A tab mounts when first opened and then stays mounted (hidden), so its work survives switching
  // tabs; mounting all three with the page made its first render one long task on a phone (issue 35).
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set([initialTab]));
  const open = (tab: string) =>
    setOpened((prev) => (prev.has(tab) ? prev : new Set(prev).add(tab)));
  return (
    <>
      <PageHeader title="Import Questions" />
      <Tabs defaultValue={initialTab} onValueChange={open}>
        <TabsList aria-label="Import options">
          <TabsTrigger value="bulk">Bulk Import</TabsTrigger>
          <TabsTrigger value="anki">Anki Import</TabsTrigger>
          <TabsTrigger value="scores">PRITE Scores</TabsTrigger>
        </TabsList>
        <TabsContent value="bulk" forceMount className="data-[state=inactive]:hidden">
          {opened.has("bulk") && <BulkImport />}
        </TabsContent>
        <TabsContent value="anki" forceMount className="data-[state=inactive]:hidden">
          {opened.has("anki") && <AnkiImport />}
        </TabsContent>
        <TabsContent value="scores" forceMount className="data-[state=inactive]:hidden">
          {opened.has("scores") && <PriteScoresImportTab />}
        </TabsContent>
      </Tabs>
    </>
  );
}

const SCORE_BENEFITS = [
  { icon: LineChart, text: "Track your performance over time" },
  { icon: Users, text: "Compare with expected levels for your PGY level" },
  { icon: TrendingUp, text: "Get personalised study recommendations" },
  { icon: Target, text: "Focus your studying on weak areas" },
] as const;

function PriteScoresImportTab() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>PRITE Scores</CardTitle>
        <CardDescription>
          Record your PRITE percentile scores from previous exams to follow your progress.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p>Adding your scores helps you:</p>
        <ul className="grid gap-2">
          {SCORE_BENEFITS.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-start gap-3">
              <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>{text}</span>
            </li>
          ))}
        </ul>
        <div>
          <Button asChild>
            <Link to="/settings" search={{ tab: "prite-scores" }}>
              Enter PRITE Scores
            </Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
