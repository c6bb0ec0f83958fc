import readline from "node:readline";

/** Reads one line: from stdin when piped or asked to, else from the terminal (hidden for passwords). */
export async function readSecret(
  prompt: string,
  hidden: boolean,
  fromStdin = false,
): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
  }
  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stderr,
    terminal: true,
  });
  if (hidden) {
    const rlAny = rl as unknown as {
      _writeToOutput: (s: string) => void;
      output: NodeJS.WriteStream;
    };
    rlAny._writeToOutput = (s: string) => {
      if (s.includes(prompt)) rlAny.output.write(prompt);
    };
  }
  const answer = await new Promise<string>((resolve) => rl.question(prompt, resolve));
  rl.close();
  if (hidden) process.stderr.write("\n");
  return answer.trim();
}
