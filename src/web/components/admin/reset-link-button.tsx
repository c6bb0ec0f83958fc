import { Copy, KeyRound } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { errorMessage, trpc } from "@/web/lib/trpc";

/**
 * Admin › Users: a one-time password reset link (24 hours) for the user, shown to copy and hand over
 * (issue 33); the server's PUBLIC_URL when it has one, else this page's own address.
 */
export function ResetLinkButton({ username }: { username: string }) {
  const make = trpc.admin.resetLink.useMutation();
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const link = make.data ? (make.data.url ?? `${window.location.origin}${make.data.path}`) : "";

  const start = () => {
    setCopied(false);
    make.reset();
    setOpen(true);
    make.mutate({ username });
  };
  const copy = async () => {
    await navigator.clipboard?.writeText(link).catch(() => {});
    setCopied(true);
  };

  return (
    <>
      <Button variant="outline" size="sm" onClick={start} aria-label={`Reset link for ${username}`}>
        <KeyRound aria-hidden="true" />
        Reset link
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Password reset link for {username}</DialogTitle>
            <DialogDescription>
              Give this link to {username}. It works once, within 24 hours, and signs the account
              out everywhere.
            </DialogDescription>
          </DialogHeader>
          {make.isError && (
            <Alert type="error">{errorMessage(make.error, "Failed to make a reset link")}</Alert>
          )}
          {make.isPending && <p className="text-sm text-muted-foreground">Making the link...</p>}
          {make.data && (
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input
                readOnly
                aria-label="Reset link"
                value={link}
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button variant="outline" onClick={copy}>
                <Copy aria-hidden="true" />
                {copied ? "Copied" : "Copy"}
              </Button>
            </div>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
