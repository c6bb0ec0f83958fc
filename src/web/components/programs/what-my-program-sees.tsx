import { Link } from "@tanstack/react-router";
import { PageHeader } from "@/web/components/layout/page-header";
import { ProgramNav } from "@/web/components/programs/program-nav";
import { Alert } from "@/web/components/ui/alert";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { Spinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";
import { FiguresList, HeatCell } from "./report-parts";
import { ScoreSharingToggle } from "./score-sharing-toggle";
import { orderCategories } from "@/core/programs/report";

/** "What my program sees" (docs/product/program-dashboard.md): the resident's own row, as the directors see it. */
export function WhatMyProgramSees() {
  const mine = trpc.programReport.mine.useQuery();
  const m = mine.data;
  return (
    <div className="space-y-4">
      <PageHeader
        title="What My Program Sees"
        description="Exactly the figures your program's directors see about you: never your answers."
      />
      <ProgramNav />
      {mine.isError && (
        <Alert type="error" autoCloseMs={null}>
          {errorMessage(mine.error, "Failed to load what your program sees")}
        </Alert>
      )}
      {mine.isPending && <Spinner label="Loading..." showLabel />}
      {mine.isSuccess && !m && (
        <p>
          You are not in a program.{" "}
          <Link to="/program/members" className="underline">
            Join or create one
          </Link>
          .
        </p>
      )}
      {m && (
        <>
          <Card>
            <CardHeader>
              <CardTitle>{m.program.name}</CardTitle>
              <CardDescription>
                {m.role === "director"
                  ? "You are a director: you are not on the program's roster."
                  : "Your row of the program dashboard."}
              </CardDescription>
            </CardHeader>
            {m.row && (
              <CardContent className="space-y-4" data-testid="my-program-row">
                <FiguresList row={m.row} />
                <div
                  className="w-full overflow-x-auto rounded-md border"
                  tabIndex={0}
                  role="region"
                  aria-label="Your heatmap row"
                >
                  <table className="border-collapse text-sm">
                    <caption className="sr-only">
                      Your accuracy per category, with the number answered
                    </caption>
                    <thead>
                      <tr>
                        {orderCategories(Object.keys(m.row.cells)).map((c) => (
                          <th
                            key={c}
                            scope="col"
                            className="px-2 py-1 text-left text-xs font-medium"
                          >
                            {c}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      <tr>
                        {orderCategories(Object.keys(m.row.cells)).map((c) => (
                          <HeatCell key={c} cell={m.row!.cells[c]} />
                        ))}
                      </tr>
                    </tbody>
                  </table>
                </div>
                <p className="text-sm text-muted-foreground">
                  Directors also see class averages per category and, if you share them, your PRITE
                  scores within your class&apos;s average.
                </p>
              </CardContent>
            )}
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>PRITE Scores</CardTitle>
            </CardHeader>
            <CardContent>
              <ScoreSharingToggle />
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
