import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Copy, LogOut, RefreshCw, UserMinus, Users } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { PageHeader } from "@/web/components/layout/page-header";
import { useBanner } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/web/components/ui/card";
import { useConfirm } from "@/web/components/ui/dialog";
import { TextField } from "@/web/components/ui/field";
import { Input } from "@/web/components/ui/input";
import { PageSpinner } from "@/web/components/ui/spinner";
import { useSessionUser } from "@/web/lib/session";
import { errorMessage, trpc, type RouterOutputs } from "@/web/lib/trpc";
import { ProgramNav } from "./program-nav";

type ProgramJson = NonNullable<RouterOutputs["programs"]["mine"]>;
type ProgramMemberJson = RouterOutputs["programs"]["members"]["members"][number];
type Notify = (type: "success" | "error", message: string) => void;

/** Everything a membership change may have changed: the program, its roster, visible questions. */
function useRefreshAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

/** Issue 32: a program's members, or (in none) the forms to create one or join with a code. */
export function MembersPage() {
  const mine = trpc.programs.mine.useQuery();
  const { show, banner } = useBanner();
  if (mine.isPending) return <PageSpinner label="Loading your program..." />;
  if (mine.isError) {
    return (
      <>
        <PageHeader title="Program" />
        <p role="alert" className="text-destructive">
          {errorMessage(mine.error, "Failed to load your program")}
        </p>
      </>
    );
  }
  if (!mine.data) {
    return (
      <>
        <PageHeader
          title="Program"
          description="Join your residency program to share its question bank and assignments."
        />
        {banner}
        <div className="grid gap-4 md:grid-cols-2">
          <JoinProgramCard notify={show} />
          <CreateProgramCard notify={show} />
        </div>
      </>
    );
  }
  return <MemberView program={mine.data} notify={show} banner={banner} />;
}

function CreateProgramCard({ notify }: { notify: Notify }) {
  const create = trpc.programs.create.useMutation();
  const refresh = useRefreshAll();
  const [name, setName] = useState("");
  const [institution, setInstitution] = useState("");
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(
      { name, institution },
      {
        onSuccess: async (program) => {
          await refresh();
          notify("success", `Created ${program.name}. Share the join link with your residents.`);
        },
        onError: (err) => notify("error", errorMessage(err, "Failed to create the program")),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create a program</CardTitle>
        <CardDescription>
          For program directors and chief residents: you become its first director.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-4" onSubmit={submit} aria-label="Create a program">
          <TextField
            id="program-name"
            label="Program name"
            required
            maxLength={120}
            value={name}
            onValueChange={setName}
          />
          <TextField
            id="program-institution"
            label="Institution"
            hint="The hospital or university (optional)."
            maxLength={200}
            value={institution}
            onValueChange={setInstitution}
          />
          <Button type="submit" busy={create.isPending} disabled={!name.trim()}>
            Create program
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function JoinProgramCard({ notify }: { notify: Notify }) {
  const join = trpc.programs.join.useMutation();
  const refresh = useRefreshAll();
  const [code, setCode] = useState("");
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    join.mutate(
      { code },
      {
        onSuccess: async (program) => {
          await refresh();
          notify("success", `You joined ${program.name}.`);
        },
        onError: (err) => notify("error", errorMessage(err, "Failed to join the program")),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Join a program</CardTitle>
        <CardDescription>Enter the join code your program director gave you.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-4" onSubmit={submit} aria-label="Join a program">
          <TextField
            id="program-code"
            label="Join code"
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={12}
            value={code}
            onValueChange={setCode}
          />
          <Button type="submit" busy={join.isPending} disabled={!code.trim()}>
            Join program
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function MemberView({
  program,
  notify,
  banner,
}: {
  program: ProgramJson;
  notify: Notify;
  banner: ReactNode;
}) {
  const director = program.role === "director";
  return (
    <>
      <PageHeader
        title={program.name}
        description={program.institution || undefined}
        actions={<LeaveButton program={program} notify={notify} />}
      />
      <ProgramNav />
      {banner}
      {director && <InviteCard program={program} notify={notify} />}
      <MembersCard program={program} notify={notify} />
    </>
  );
}

function InviteCard({ program, notify }: { program: ProgramJson; notify: Notify }) {
  const renew = trpc.programs.renewCode.useMutation();
  const refresh = useRefreshAll();
  const { confirm, dialog } = useConfirm();
  const link = program.joinUrl ?? `${window.location.origin}${program.joinPath ?? ""}`;
  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notify("success", `${what} copied.`);
    } catch {
      notify("error", `Could not copy the ${what.toLowerCase()}: select it and copy it instead.`);
    }
  };
  const renewCode = async () => {
    const ok = await confirm({
      title: "Make a new join code?",
      description:
        "The current code and link stop working at once. Members stay in the program; only new residents need the new code.",
      confirmLabel: "Make a new code",
    });
    if (!ok) return;
    renew.mutate(
      { id: program.id },
      {
        onSuccess: async () => {
          await refresh();
          notify("success", "The program has a new join code.");
        },
        onError: (err) => notify("error", errorMessage(err, "Failed to renew the code")),
      },
    );
  };
  return (
    <Card className="mb-4">
      <CardHeader>
        <CardTitle>Invite residents</CardTitle>
        <CardDescription>
          Residents join with the code, or by opening the link and signing in.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-muted-foreground">Join code</span>
          <span className="font-mono text-xl font-semibold tracking-widest" data-testid="join-code">
            {program.code}
          </span>
          <Button variant="outline" size="sm" onClick={() => copy(program.code ?? "", "Code")}>
            <Copy aria-hidden="true" />
            Copy code
          </Button>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input readOnly aria-label="Join link" value={link} className="font-mono text-sm" />
          <Button variant="outline" onClick={() => copy(link, "Link")}>
            <Copy aria-hidden="true" />
            Copy link
          </Button>
        </div>
        <div>
          <Button variant="ghost" size="sm" busy={renew.isPending} onClick={renewCode}>
            <RefreshCw aria-hidden="true" />
            New code
          </Button>
        </div>
        {dialog}
      </CardContent>
    </Card>
  );
}

/** Members grouped by PGY class, in the classes' order (the server sorts them). */
function groupByPgy(members: ProgramMemberJson[]): [string, ProgramMemberJson[]][] {
  const groups = new Map<string, ProgramMemberJson[]>();
  for (const m of members) {
    const list = groups.get(m.pgyLabel) ?? [];
    list.push(m);
    groups.set(m.pgyLabel, list);
  }
  return [...groups.entries()];
}

function MembersCard({ program, notify }: { program: ProgramJson; notify: Notify }) {
  const members = trpc.programs.members.useQuery({ id: program.id });
  const me = useSessionUser();
  if (members.isPending) return <PageSpinner label="Loading members..." />;
  if (members.isError) {
    return (
      <p role="alert" className="text-destructive">
        {errorMessage(members.error, "Failed to load the members")}
      </p>
    );
  }
  const { roster, classes } = members.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Users className="mr-2 inline size-5" aria-hidden="true" />
          {roster === "full" ? "Members" : "Directors"}
        </CardTitle>
        <CardDescription>
          {roster === "full"
            ? `${program.memberCount} member${program.memberCount === 1 ? "" : "s"}, by PGY level.`
            : "Your directors see your progress figures (What my program sees); classmates' names stay private."}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {groupByPgy(members.data.members).map(([label, list]) => (
          <section key={label} aria-label={label}>
            <h4 className="mb-1 text-sm font-semibold text-muted-foreground">{label}</h4>
            <ul className="divide-y rounded-md border">
              {list.map((m) => (
                <MemberRow
                  key={m.userId}
                  program={program}
                  member={m}
                  self={m.userId === me._id}
                  manage={roster === "full"}
                  notify={notify}
                />
              ))}
            </ul>
          </section>
        ))}
        {roster === "directors" && (
          <p className="text-sm text-muted-foreground">
            Residents by class:{" "}
            {classes.length === 0
              ? "none yet"
              : classes.map((c) => `${c.pgyLabel}: ${c.residents}`).join(", ")}
            .
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function MemberRow({
  program,
  member,
  self,
  manage,
  notify,
}: {
  program: ProgramJson;
  member: ProgramMemberJson;
  self: boolean;
  manage: boolean;
  notify: Notify;
}) {
  const setRole = trpc.programs.setRole.useMutation();
  const remove = trpc.programs.removeMember.useMutation();
  const refresh = useRefreshAll();
  const { confirm, dialog } = useConfirm();
  const name = member.displayName || member.username;
  const promoting = member.role === "resident";

  const changeRole = async () => {
    const ok = await confirm(
      promoting
        ? {
            title: `Make ${name} a director?`,
            description:
              "Directors see every resident's progress figures, manage members and the join code, and give assignments.",
            confirmLabel: "Make director",
          }
        : {
            title: self ? "Step down as director?" : `Make ${name} a resident?`,
            description: self
              ? "You will no longer see residents' figures or manage the program."
              : `${name} will no longer see residents' figures or manage the program.`,
            confirmLabel: self ? "Step down" : "Make resident",
          },
    );
    if (!ok) return;
    setRole.mutate(
      { id: program.id, userId: member.userId, role: promoting ? "director" : "resident" },
      {
        onSuccess: async () => {
          await refresh();
          notify(
            "success",
            promoting ? `${name} is now a director.` : `${name} is now a resident.`,
          );
        },
        onError: (err) => notify("error", errorMessage(err, "Failed to change the role")),
      },
    );
  };
  const removeMember = async () => {
    const ok = await confirm({
      title: `Remove ${name} from ${program.name}?`,
      description:
        "They lose access to the program's questions and assignments at once, and leave its dashboard. They can join again with the code.",
      confirmLabel: "Remove",
      destructive: true,
    });
    if (!ok) return;
    remove.mutate(
      { id: program.id, userId: member.userId },
      {
        onSuccess: async () => {
          await refresh();
          notify("success", `${name} was removed from the program.`);
        },
        onError: (err) => notify("error", errorMessage(err, "Failed to remove the member")),
      },
    );
  };

  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
      <div className="min-w-0">
        <p className="truncate font-medium">
          {name}
          {self && <span className="text-muted-foreground"> (you)</span>}
        </p>
        <p className="truncate text-sm text-muted-foreground">
          {member.username}
          {member.joinedAt && ` · joined ${new Date(member.joinedAt).toLocaleDateString()}`}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={member.role === "director" ? "default" : "secondary"}>
          {member.role === "director" ? "Director" : "Resident"}
        </Badge>
        {manage && (
          <>
            <Button
              variant="outline"
              size="sm"
              busy={setRole.isPending}
              onClick={changeRole}
              aria-label={
                promoting
                  ? `Make ${name} a director`
                  : self
                    ? "Step down as director"
                    : `Make ${name} a resident`
              }
            >
              {promoting ? "Promote" : self ? "Step down" : "Demote"}
            </Button>
            {!self && (
              <Button
                variant="outline"
                size="sm"
                busy={remove.isPending}
                onClick={removeMember}
                aria-label={`Remove ${name}`}
              >
                <UserMinus aria-hidden="true" />
                Remove
              </Button>
            )}
          </>
        )}
      </div>
      {dialog}
    </li>
  );
}

function LeaveButton({ program, notify }: { program: ProgramJson; notify: Notify }) {
  const leave = trpc.programs.leave.useMutation();
  const refresh = useRefreshAll();
  const navigate = useNavigate();
  const { confirm, dialog } = useConfirm();
  const last = program.memberCount === 1;
  const onlyDirector = program.role === "director" && program.directorCount === 1 && !last;

  const start = async () => {
    if (onlyDirector) {
      notify(
        "error",
        "You are the program's only director: make another member a director before leaving.",
      );
      return;
    }
    const ok = await confirm({
      title: `Leave ${program.name}?`,
      description: last
        ? "You are its last member: the program is deleted, and its questions become private to their authors."
        : "You lose access to the program's questions and assignments at once, and leave its dashboard. You can join again with a code.",
      confirmLabel: "Leave program",
      destructive: true,
    });
    if (!ok) return;
    leave.mutate(
      { id: program.id },
      {
        onSuccess: async (result) => {
          await refresh();
          await navigate({ to: "/program/members" });
          notify(
            "success",
            result.programDeleted
              ? `You left ${program.name}, and the program was deleted.`
              : `You left ${program.name}.`,
          );
        },
        onError: (err) => notify("error", errorMessage(err, "Failed to leave the program")),
      },
    );
  };
  return (
    <>
      <Button variant="outline" busy={leave.isPending} onClick={start}>
        <LogOut aria-hidden="true" />
        Leave program
      </Button>
      {dialog}
    </>
  );
}
