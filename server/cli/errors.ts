/** A failure of a `lectern` command, told in a sentence on stderr; exit code 1 (2 for a usage error). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2 = 1) {
    super(message);
    this.name = "CliError";
  }
}

export const usage = (message: string) => new CliError(message, 2);
