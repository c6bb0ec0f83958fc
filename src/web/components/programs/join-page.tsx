import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { School } from "lucide-react";
import { PageHeader } from "@/web/components/layout/page-header";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { PageSpinner } from "@/web/components/ui/spinner";
import { errorMessage, trpc } from "@/web/lib/trpc";

/** Issue 32: a program's join link shows its name and institution, and joins with one click. */
export function JoinProgramPage({ code }: { code: string }) {
  const preview = trpc.programs.preview.useQuery({ code }, { retry: false });
  const join = trpc.programs.join.useMutation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const onJoin = () =>
    join.mutate(
      { code },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries();
          await navigate({ to: "/program/members" });
        },
      },
    );

  if (preview.isPending) return <PageSpinner label="Loading the program..." />;
  return (
    <>
      <PageHeader title="Join a Program" />
      {preview.isError ? (
        <Alert type="error" autoCloseMs={null}>
          {errorMessage(preview.error, "Failed to load the program")}
        </Alert>
      ) : (
        <Card className="max-w-lg">
          <CardHeader>
            <CardTitle>
              <School className="mr-2 inline size-5" aria-hidden="true" />
              {preview.data.name}
            </CardTitle>
            {preview.data.institution && (
              <CardDescription>{preview.data.institution}</CardDescription>
            )}
          </CardHeader>
          <CardContent className="flex flex-col gap-3 text-sm">
            <p>
              {preview.data.memberCount} member{preview.data.memberCount === 1 ? "" : "s"}. As a
              resident you study the program&apos;s question bank and its assignments, and its
              directors see your progress figures (never your individual answers).
            </p>
            {join.isError && (
              <Alert type="error" autoCloseMs={null}>
                {errorMessage(join.error, "Failed to join the program")}
              </Alert>
            )}
            {preview.data.membership === "another" && (
              <Alert type="info" autoCloseMs={null}>
                You are a member of another program. Leave it first on the{" "}
                <Link to="/program/members" className="underline">
                  Program page
                </Link>
                .
              </Alert>
            )}
          </CardContent>
          <CardFooter>
            {preview.data.membership === "this" ? (
              <Button asChild>
                <Link to="/program/members">You are a member: open the program</Link>
              </Button>
            ) : (
              <Button
                onClick={onJoin}
                busy={join.isPending}
                disabled={preview.data.membership === "another"}
              >
                Join {preview.data.name}
              </Button>
            )}
          </CardFooter>
        </Card>
      )}
    </>
  );
}
