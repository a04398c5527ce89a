// Builds the question sets that `deno task eval` reads from bench/eval/data/ (they are shipped; the eval itself
// reads nothing else and downloads nothing). Rerun only to remake the sets:
//
//   deno run -A bench/eval/build_sets.ts <path of SQuAD v1.1 train-v1.1.json, whole or cut short>
//
// A held-out set from SQuAD's dev split is made the same way but never shipped: `--held-out <folder outside the
// repository> <dev JSON files, v1.1 or v2.0, whole or cut short...>` writes set "squad-dev" there (every whole
// article found, each once; every answerable question), for `EVAL_DIR=<folder> EVAL_SETS=squad-dev deno task eval`.
//
// 1. SQuAD v1.1, TRAINING split only (its dev split is kept for held-out checks): the whole articles found in
//    the file, split in two by article (even-numbered articles: set "squad-a", used to tune; odd: "squad-b",
//    used to confirm). Each paragraph is a passage; each question's relevant passage is its paragraph; 400
//    questions per set, drawn with a fixed seed.
// 2. Section headings of the Rust book (../shared/corpus/md/rust-book): each Markdown heading of 3+ words used
//    once in the book becomes a question, answered by the chunk(s) where its section's text starts (headings are
//    left out of the indexed text), as bench/retrieval.ts does; 400 questions.
import { fileURLToPath } from "node:url";
import { splitText } from "../../server/documents/chunker.ts";
import { seededRandom } from "../../server/testing/random.ts";
import type { EvalSet } from "./sets.ts";
import { writeSet } from "./sets.ts";

const DATA = fileURLToPath(new URL("./data/", import.meta.url));
const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const QUESTIONS = 400;

interface SquadArticle {
  title: string;
  /** `is_impossible`: a SQuAD 2.0 question its paragraph does not answer (left out: nothing answers it). */
  paragraphs: { context: string; qas: { question: string; id: string; is_impossible?: boolean }[] }[];
}

/** The whole articles of a SQuAD file, even one cut short (the articles before the cut are kept). */
function squadArticles(text: string): SquadArticle[] {
  try {
    return JSON.parse(text).data;
  } catch {
    const articles: SquadArticle[] = [];
    let start = text.indexOf("[") + 1;
    for (;;) {
      // Each article is a top-level object of the data array: find its end by bracket depth, outside strings.
      while (/[\s,]/.test(text[start] ?? "")) start++;
      if (text[start] !== "{") break;
      let depth = 0;
      let inString = false;
      let end = -1;
      for (let index = start; index < text.length; index++) {
        const char = text[index];
        if (inString) {
          if (char === "\\") index++;
          else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === "{" || char === "[") depth++;
        else if (char === "}" || char === "]") {
          depth--;
          if (depth === 0) {
            end = index + 1;
            break;
          }
        }
      }
      if (end < 0) break;
      articles.push(JSON.parse(text.slice(start, end)));
      start = end;
    }
    return articles;
  }
}

function sample<T>(items: T[], count: number, seed: number): T[] {
  const next = seededRandom(seed);
  return items.map((item) => ({ item, order: next() })).sort((a, b) => a.order - b.order).slice(0, count)
    .map(({ item }) => item);
}

/** A set of whole SQuAD articles; `seed` draws 400 of their questions, null keeps them all. */
function squadSet(name: string, articles: SquadArticle[], seed: number | null, split = "train"): EvalSet {
  const passages: EvalSet["passages"] = [];
  const candidates: EvalSet["questions"] = [];
  for (const article of articles) {
    const title = article.title.replaceAll("_", " ");
    article.paragraphs.forEach((paragraph, index) => {
      const id = `${article.title}#${index}`;
      passages.push({ id, title, text: paragraph.context });
      for (const qa of paragraph.qas) {
        if (!qa.is_impossible) candidates.push({ text: qa.question.trim(), relevant: [id] });
      }
    });
  }
  return {
    name,
    description: `SQuAD ${split}, ${articles.length} articles (${
      articles.map((article) => article.title.replaceAll("_", " ")).join(", ")
    }): a paragraph per passage, crowd-written questions about it`,
    license: "CC BY-SA 4.0",
    source: `SQuAD ${split} split (Rajpurkar et al. 2016), https://rajpurkar.github.io/SQuAD-explorer/`,
    passages,
    questions: seed === null ? candidates : sample(candidates, QUESTIONS, seed),
  };
}

/** The held-out set: every whole article of the dev files, each once, never written into bench/eval/data. */
async function writeHeldOut(folder: string, paths: string[]) {
  const target = await Deno.realPath(folder);
  const data = await Deno.realPath(DATA);
  if (target === data || target.startsWith(`${data}/`)) {
    throw new Error("The held-out set stays out of bench/eval/data: it must never be shipped or tuned on.");
  }
  const articles = new Map<string, SquadArticle>();
  for (const path of paths) {
    for (const article of squadArticles(Deno.readTextFileSync(path))) {
      if (!articles.has(article.title)) articles.set(article.title, article);
    }
  }
  const set = squadSet("squad-dev", [...articles.values()], null, "dev");
  const bytes = await writeSet(`${target}/`, set);
  console.log(
    `${set.name}: ${set.passages.length} passages, ${set.questions.length} questions, ${bytes} bytes`,
  );
}

function* walk(directory: string): Generator<string> {
  for (const entry of [...Deno.readDirSync(directory)].sort((a, b) => a.name.localeCompare(b.name))) {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else if (entry.isFile && entry.name.endsWith(".md")) yield path;
  }
}

const TEMPLATES = [
  (heading: string) => `${heading}?`,
  (heading: string) => `Can you explain ${heading.toLowerCase()}?`,
  (heading: string) => `What should I know about ${heading.toLowerCase()}?`,
];

function cleanHeading(raw: string): string {
  return raw.replace(/\{\s*#[^}]*\}/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*_<>]/g, "")
    .replace(/\s+/g, " ").trim();
}

async function headingsSet(): Promise<EvalSet> {
  const root = `${CORPUS}md/rust-book`;
  const passages: EvalSet["passages"] = [];
  const candidates: { heading: string; relevant: string[] }[] = [];
  const uses = new Map<string, number>();
  for (const path of walk(root)) {
    const title = path.slice(root.length + 1);
    let text = "";
    let fenced = false;
    const sections: { heading: string; start: number; length: number }[] = [];
    for (const line of Deno.readTextFileSync(path).split("\n")) {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      const heading = fenced ? null : /^#{1,6}\s+(.+)$/.exec(line);
      if (heading) {
        if (sections.length) sections.at(-1)!.length = text.length - sections.at(-1)!.start;
        sections.push({ heading: cleanHeading(heading[1]), start: text.length, length: 0 });
        continue;
      }
      text += line + "\n";
    }
    if (sections.length) sections.at(-1)!.length = text.length - sections.at(-1)!.start;
    const chunks = await splitText(text, { chunkSize: 1000, chunkOverlap: 20 });
    let cursor = 0;
    const spans = chunks.map((chunk, index) => {
      const found = text.indexOf(chunk, Math.max(0, cursor - chunk.length));
      if (found >= 0) cursor = found + 1;
      return { id: `${title}#${index}`, start: found, end: found + chunk.length };
    });
    chunks.forEach((chunk, index) => passages.push({ id: spans[index].id, title, text: chunk }));
    for (const section of sections) {
      const body = text.slice(section.start, section.start + section.length).trim();
      if (section.heading.split(" ").length < 3 || body.length < 200) continue;
      const key = section.heading.toLowerCase();
      uses.set(key, (uses.get(key) ?? 0) + 1);
      const relevant = spans.filter((span) =>
        span.start >= 0 && span.start < section.start + 200 && span.end > section.start
      ).map((span) => span.id);
      if (relevant.length) candidates.push({ heading: section.heading, relevant });
    }
  }
  const unique = candidates.filter((candidate) => uses.get(candidate.heading.toLowerCase()) === 1);
  return {
    name: "rust-book-headings",
    description:
      "The Rust Programming Language (rust-lang/book): 1000-char chunks without headings; each section heading " +
      "(3+ words, used once) asked as a question, answered by the chunk where its section starts",
    license: "MIT OR Apache-2.0",
    source: "https://github.com/rust-lang/book (../shared/corpus/md/rust-book, see its MANIFEST.tsv)",
    passages,
    questions: sample(unique, QUESTIONS, 42).map((candidate, index) => ({
      text: TEMPLATES[index % TEMPLATES.length](candidate.heading),
      relevant: candidate.relevant,
    })),
  };
}

if (Deno.args[0] === "--held-out") {
  const [, folder, ...paths] = Deno.args;
  if (!folder || paths.length === 0) {
    throw new Error("Usage: build_sets.ts --held-out <folder> <dev-v1.1.json or dev-v2.0.json...>");
  }
  await writeHeldOut(folder, paths);
  Deno.exit(0);
}
const squadPath = Deno.args[0];
if (!squadPath) throw new Error("Usage: build_sets.ts <train-v1.1.json>");
const articles = squadArticles(Deno.readTextFileSync(squadPath));
if (articles.length < 4) throw new Error(`Only ${articles.length} whole articles in ${squadPath}`);
await Deno.mkdir(DATA, { recursive: true });
for (
  const set of [
    squadSet("squad-a", articles.filter((_, index) => index % 2 === 0), 1),
    squadSet("squad-b", articles.filter((_, index) => index % 2 === 1), 2),
    await headingsSet(),
  ]
) {
  const bytes = await writeSet(DATA, set);
  console.log(
    `${set.name}: ${set.passages.length} passages, ${set.questions.length} questions, ${bytes} bytes`,
  );
}
