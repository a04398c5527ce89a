// The Dockerfile linted (issue 19). hadolint is not in Debian and its npm package downloads a binary, so the
// lint is dockerlinter's (pure JavaScript; its rules follow hadolint's, named here by hadolint's codes), with
// ShellCheck off (dockerlinter downloads that binary at install, which is not run here), and the structure the
// image relies on is read with dockerfile-ast.
import assert from "node:assert/strict";
import { join } from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import lints from "dockerlinter/lib/lints.js";
import { cleanErrors, getErrors } from "dockerlinter/lib/errors.js";
import { parseToLines } from "dockerlinter/lib/parser.js";
import { directivesParser, getEscape, parseFromAliases } from "dockerlinter/lib/directives.js";
import {
  getInlineIgnores,
  groupByCommand,
  groupLinesByInstruction,
  replaceArgAndEnv,
} from "dockerlinter/lib/groups.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** dockerlinter's rules that are hadolint's, by hadolint's code. */
const HADOLINT_RULES: Record<string, string> = {
  EF0003: "DL3007 no `latest` tag",
  EF0004: "DL3006 every base image tagged",
  EU0001: "DL3002 the last USER is not root",
  ER0002: "DL3009 apt lists deleted after apt-get install",
  ER0010: "DL3015 apt-get install --no-install-recommends",
  ER0009: "DL3014 apt-get install -y",
  ER0012: "DL3008 apt package versions pinned",
  EA0002: "DL3020 COPY, not ADD, for files and folders",
  EJ0002: "DL3025 CMD and ENTRYPOINT in JSON form",
  EW0001: "DL3000 absolute WORKDIR",
  ER0004: "DL3004 no sudo",
  EC0002: "DL3022 COPY --from names an earlier stage",
};

/** Every rule of dockerlinter over `text` (as its CLI runs them, without printing): codes and line numbers. */
function lint(text: string): { code: string; line: number }[] {
  cleanErrors();
  const lines = parseToLines(text);
  const inlineIgnores = getInlineIgnores(lines);
  const parserDirectives = directivesParser(lines);
  const escape = getEscape(parserDirectives);
  const groups = replaceArgAndEnv(groupByCommand(groupLinesByInstruction(lines, escape)), escape);
  const aliases = parseFromAliases(groups);
  const parsed = { lines, parserDirectives, escape, groups, aliases, inlineIgnores };
  for (const rule of Object.values(lints) as ((file: unknown) => void)[]) rule(parsed);
  const found = (getErrors() as { errorCode: string; lineNumber: number }[]).map((error) => ({
    code: error.errorCode,
    line: error.lineNumber,
  }));
  cleanErrors();
  return found;
}

Deno.test("Dockerfile: dockerlinter finds nothing (hadolint's rules among its 43)", async () => {
  const findings = lint(await Deno.readTextFile(join(ROOT, "Dockerfile")));
  assert.deepEqual(findings, [], JSON.stringify(findings));
});

Deno.test("Dockerfile lint: a Dockerfile breaking hadolint's main rules is caught, rule by rule", () => {
  const bad = [
    "FROM debian",
    "FROM node:latest AS build",
    "WORKDIR app",
    "ADD src /app/src",
    "RUN sudo apt-get update && apt-get install curl",
    "COPY --from=nowhere /x /y",
    "USER root",
    "CMD node server.js",
  ].join("\n");
  const codes = new Set(lint(bad).map((finding) => finding.code));
  const missed = Object.keys(HADOLINT_RULES).filter((code) => !codes.has(code));
  assert.deepEqual(missed.map((code) => HADOLINT_RULES[code]), []);
});

Deno.test("Dockerfile: multi-stage on pinned base images; the image runs as a user of its own, with a health check and the lectern entry", async () => {
  const dockerfile = DockerfileParser.parse(await Deno.readTextFile(join(ROOT, "Dockerfile")));
  const froms = dockerfile.getFROMs();
  assert.ok(froms.length >= 2, "multi-stage");
  for (const from of froms) {
    const pinned = /^\d+\.\d+\.\d+/.test(from.getImageTag() ?? "") || from.getImageDigest() !== null;
    assert.ok(pinned, `${from.getImageName()} is pinned to an exact version or digest`);
  }
  const instructions = dockerfile.getInstructions();
  const lastFrom = froms.at(-1)!;
  const finalStage = instructions.filter((instruction) =>
    instruction.getRange().start.line > lastFrom.getRange().start.line
  );
  const named = (keyword: string) => finalStage.filter((instruction) => instruction.getKeyword() === keyword);
  const user = named("USER").at(-1)?.getArguments()[0]?.getValue();
  assert.ok(user && !/^(root|0)(:|$)/.test(user), `the final stage runs as ${user}, not root`);
  assert.equal(named("HEALTHCHECK").length, 1, "one HEALTHCHECK");
  assert.match(named("HEALTHCHECK")[0].getTextContent(), /\/api\/ping/);
  assert.equal(named("ADD").length, 0);
  assert.deepEqual(named("ENTRYPOINT").at(-1)?.getArguments().map((arg) => arg.getValue()), ['["lectern"]']);
});
