// Where the server's log lines go: stdout, written without ever blocking the process. A reader that falls behind is
// owed at most a bounded backlog; a line that does not fit, or that cannot be written because the reader is gone, is
// dropped and counted, never waited for. Stopping waits for the backlog only until a deadline.
import type { Writable } from 'node:stream';
import tty from 'node:tty';

/** How often `drain` looks whether the backlog has been written. */
const DRAIN_POLL_MS = 20;

/** A log destination (what pino writes its lines to) that holds at most `maxBacklogBytes` of unwritten lines. */
export class LogOutput {
  private droppedCount = 0;
  private broken = false;
  /** Counts a line whose write failed (the reader went away with it still queued). */
  private readonly afterWrite = (error?: Error | null) => {
    if (error) this.droppedCount += 1;
  };

  constructor(
    private readonly out: Writable,
    private readonly maxBacklogBytes: number,
  ) {
    // A write error (the reader closed its end) ends the output: every later line is dropped.
    out.on('error', () => (this.broken = true));
  }

  /** Writes one line, or drops and counts it when the output is broken or its backlog is full. */
  write(line: string): void {
    if (this.broken || this.out.destroyed || this.out.writableLength + line.length > this.maxBacklogBytes) {
      this.droppedCount += 1;
      return;
    }
    this.out.write(line, this.afterWrite);
  }

  /** The lines dropped so far. */
  get droppedLines(): number {
    return this.droppedCount;
  }

  /**
   * Resolves once the backlog has been written (or cannot be: the output broke), or after `timeoutMs`, whichever comes
   * first; true when nothing was left unwritten.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.broken && this.out.writableLength > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(DRAIN_POLL_MS, Math.max(1, deadline - Date.now()))));
    }
    return !this.broken && this.out.writableLength === 0;
  }
}

/**
 * The log output on this process's stdout. A pipe or socket is already written without blocking; a terminal, which
 * Node writes blocking, is switched to non-blocking writes so that a paused one cannot stop the server.
 */
export function stdoutLogOutput(maxBacklogBytes: number): LogOutput {
  if (process.stdout instanceof tty.WriteStream) {
    const handle = (process.stdout as unknown as { _handle?: { setBlocking?(blocking: boolean): number } })._handle;
    handle?.setBlocking?.(false);
  }
  return new LogOutput(process.stdout, maxBacklogBytes);
}
