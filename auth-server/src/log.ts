// Timestamped log lines on stdout ("2025-01-31T12:00:00.000Z INFO  text"), for a terminal or the service manager's journal.

/** Writes log lines of three levels. */
export interface Logger {
  /** Logs what the server is doing. */
  info(message: string): void;
  /** Logs something an operator may want to look at. */
  warn(message: string): void;
  /** Logs a failure that players notice. */
  error(message: string): void;
}

/** Makes a logger that writes one timestamped line per message to a stream (stdout by default). */
export function createLogger(stream: { write(text: string): unknown } = process.stdout): Logger {
  const write = (level: string, message: string) =>
    stream.write(`${new Date().toISOString()} ${level.padEnd(5)} ${message}\n`);
  return {
    info: (message) => write('INFO', message),
    warn: (message) => write('WARN', message),
    error: (message) => write('ERROR', message),
  };
}
