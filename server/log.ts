import type { LogLevel } from "./config.ts";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** One line per event: `<time> <level> <message> key=value …`, to stderr for warn and error. */
export function createLogger(
  level: LogLevel,
  write: (line: string, level: LogLevel) => void = defaultWrite,
): Logger {
  const emit = (lineLevel: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[lineLevel] < ORDER[level]) return;
    const extra = fields
      ? Object.entries(fields).filter(([, value]) => value !== undefined).map(([key, value]) =>
        ` ${key}=${typeof value === "string" && !/\s/.test(value) ? value : JSON.stringify(value)}`
      ).join("")
      : "";
    write(`${new Date().toISOString()} ${lineLevel.toUpperCase()} ${message}${extra}`, lineLevel);
  };
  return {
    debug: (message, fields) => emit("debug", message, fields),
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
  };
}

function defaultWrite(line: string, level: LogLevel) {
  if (level === "warn" || level === "error") console.error(line);
  else console.log(line);
}

export const silentLogger: Logger = createLogger("error", () => {});
