import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The walk-throughs of the README and docs/, read and run as a reader would: shell blocks marked
 * `<!-- walkthrough -->` (the line above the fence) run in document order in one bash session, and
 * each documented answer, a `# -> <JSON>` comment after a command (continued on the following
 * `#` lines), is compared with what the commands before it printed.
 */

/** A fenced shell block of a Markdown file. */
export interface ShellBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  runnable: boolean;
  code: string;
}

/** One command (or a few) and the answer the document shows for it, if any. */
export interface Step {
  block: ShellBlock;
  /** 1-based line in the file of the step's first line. */
  line: number;
  code: string;
  /** The documented answer (`# -> ...`); `fails`: `# -> error ...`, the command answers an HTTP error. */
  expected?: { value: unknown; fails: boolean };
}

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);
export const MARKER = '<!-- walkthrough -->';

export function shellBlocks(file: string, text: string): ShellBlock[] {
  const lines = text.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```+\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*```+\s*$/.test(l));
    if (end < 0) break;
    if (SHELL.has(open[2].toLowerCase())) {
      let before = i - 1;
      while (before >= 0 && lines[before].trim() === '') before--;
      blocks.push({
        file,
        line: i + 1,
        runnable: before >= 0 && lines[before].trim() === MARKER,
        code: lines.slice(i + 1, end).join('\n'),
      });
    }
    i = end;
  }
  return blocks;
}

/** Splits a block at its documented answers: each `# -> ...` closes the step before it. */
export function stepsOf(block: ShellBlock): Step[] {
  const steps: Step[] = [];
  const lines = block.code.split('\n');
  let code: string[] = [];
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const answer = /^\s*# -> (.*)$/.exec(lines[i]);
    if (!answer) {
      if (code.length === 0) start = i;
      code.push(lines[i]);
      continue;
    }
    let text = answer[1];
    while (i + 1 < lines.length && /^\s*#\s{2,}\S/.test(lines[i + 1])) text += ` ${lines[++i].replace(/^\s*#\s+/, '')}`;
    const fails = text.startsWith('error ');
    let value: unknown;
    try {
      value = JSON.parse(fails ? text.slice(6) : text);
    } catch {
      throw new Error(`${block.file}:${block.line + 1 + i}: the documented answer is not JSON: ${text}`);
    }
    steps.push({ block, line: block.line + 1 + start, code: code.join('\n'), expected: { value, fails } });
    code = [];
  }
  if (code.some((l) => l.trim() !== '' && !l.trim().startsWith('#')))
    steps.push({ block, line: block.line + 1 + start, code: code.join('\n') });
  return steps;
}

/**
 * What a step printed, as a reader compares it: one JSON document, or one JSON value per line (jq -c
 * over a list), given as an array; otherwise the text.
 */
export function printed(output: string): unknown {
  const text = output.trim();
  try {
    return JSON.parse(text);
  } catch {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    try {
      return lines.map((l) => JSON.parse(l));
    } catch {
      return text;
    }
  }
}

/** A bash session that keeps its variables from one step to the next. */
export class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private stdout = '';
  private waiting: { marker: string; resolve: (code: number) => void } | null = null;
  private count = 0;

  constructor(
    private readonly cwd: string,
    env: Record<string, string>,
  ) {
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: 'pipe' });
    this.bash.stdout.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      const waiting = this.waiting;
      const match = waiting && new RegExp(`${waiting.marker} (\\d+)\\n`).exec(this.stdout);
      if (waiting && match) {
        this.waiting = null;
        this.stdout = '';
        waiting.resolve(Number(match[1]));
      }
    });
    // A pipeline fails when any of its commands fails (curl in `curl ... | jq ...`).
    this.bash.stdin.write('set -o pipefail\n');
  }

  /** Runs code in the session; its output (stdout and stderr) and exit status. */
  async run(code: string, timeoutMs = 30_000): Promise<{ status: number; output: string }> {
    const n = ++this.count;
    const out = path.join(this.cwd, `.step-${n}.out`);
    const marker = `__WALKTHROUGH_STEP_${n}_DONE__`;
    const status = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the step did not finish within ${timeoutMs} ms`)), timeoutMs);
      this.waiting = {
        marker,
        resolve: (code) => {
          clearTimeout(timer);
          resolve(code);
        },
      };
      // A group, not a subshell: assignments stay for the next steps.
      this.bash.stdin.write(`{\n${code}\n} > ${out} 2>&1 < /dev/null; echo "${marker} $?"\n`);
    });
    const output = fs.readFileSync(out, 'utf8');
    fs.rmSync(out);
    return { status, output };
  }

  close(): void {
    this.bash.stdin.end();
    this.bash.kill();
  }
}
