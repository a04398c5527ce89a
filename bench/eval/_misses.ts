import { cachedSet, mergedTextSide } from "./expansion_study.ts";
import { fuseHybrid } from "../../server/providers/vectors/fusion.ts";
import { parseWordForms, relatedForms } from "../../server/providers/vectors/word_forms.ts";
import { CHOSEN, tableOf, wordNetLinks } from "../../scripts/build_word_forms.ts";
const name = Deno.args[0] ?? "squad-b";
const { links } = await wordNetLinks();
const forms = parseWordForms(tableOf(links, CHOSEN));
const { set, cached, texts } = await cachedSet(name, links);
set.questions.forEach((q, i) => {
  const c = cached[i];
  const rankOf = (ids: string[]) => ids.findIndex((id) => q.relevant.includes(id)) + 1;
  const before = rankOf(
    fuseHybrid(c.byVector, c.byText, c.textScores, 40, { question: q.text }).map((h) => h.id),
  );
  const m = mergedTextSide(q.text, c, forms, 0.2, texts);
  const rf = relatedForms(q.text, forms);
  const after = rankOf(
    fuseHybrid(m.byVector, m.byText, m.textScores, 40, {
      question: q.text,
      relatedForms: rf,
      relatedShare: 0.5,
    }).map((h) => h.id),
  );
  if (before !== after) console.log(`${before} -> ${after}: ${q.text} [${rf.join(",")}]`);
});
