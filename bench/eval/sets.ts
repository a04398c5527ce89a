// The shipped question sets of the retrieval evaluation: gzipped JSON in bench/eval/data/.

export interface EvalSet {
  name: string;
  description: string;
  license: string;
  source: string;
  /** The searchable passages; `title` goes in the chunk header, as a document's title does. */
  passages: { id: string; title: string; text: string }[];
  /** Each question with the ids of the passages that answer it. */
  questions: { text: string; relevant: string[] }[];
}

export const SET_NAMES = ["squad-a", "squad-b", "rust-book-headings"] as const;

const fileOf = (directory: string, name: string) => `${directory}${name}.json.gz`;

export async function writeSet(directory: string, set: EvalSet): Promise<number> {
  const stream = new Blob([JSON.stringify(set)]).stream().pipeThrough(new CompressionStream("gzip"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  await Deno.writeFile(fileOf(directory, set.name), bytes);
  return bytes.length;
}

export async function readSet(directory: string, name: string): Promise<EvalSet> {
  const file = await Deno.open(fileOf(directory, name));
  return await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).json();
}
