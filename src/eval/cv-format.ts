/**
 * @module eval/cv-format
 * The human-readable form of a cross-validation report: in-sample beside cross-validated, all channels fused,
 * each channel alone, each category, and which setting each fold chose.
 */
import { countOf } from "../text/plural.js";
import type { CvFigures, CvReport } from "./cv.js";

const f = (x: number) => x.toFixed(3);

function row(label: string, c: CvFigures): string {
  const d = c.default;
  const b = c.best_in_sample;
  const x = c.cross_validated;
  return `| ${label} | ${f(d["recall@10"])} | ${f(d["ndcg@10"])} | ${f(b.metrics["recall@10"])} (${b.setting}) | ${f(x["recall@10"])} | ${f(x["ndcg@10"])} |`;
}

export function formatCv(r: CvReport): string {
  const head = "| configuration | default R@10 | default nDCG@10 | best in-sample R@10 | cross-validated R@10 | cross-validated nDCG@10 |\n|---|---:|---:|---:|---:|---:|";
  const channels = Object.entries(r.by_channel).filter(([, c]) => c.best_in_sample.metrics["recall@10"] > 0);
  const cats = Object.entries(r.by_category)
    .map(([c, m]) => `| category ${c} | ${f(m.default["recall@10"])} | ${f(m.cross_validated["recall@10"])} |`)
    .join("\n");
  const folds = r.overall.folds
    .map((x) => `| ${x.held_out} | ${x.questions} | ${f(x.default["recall@10"])} | ${f(x.best_in_sample.metrics["recall@10"])} (${x.best_in_sample.setting}) | ${x.chosen} | ${f(x.train)} | ${f(x.test["recall@10"])} |`)
    .join("\n");
  const settings = Object.entries(r.by_setting)
    .map(([name, m]) => `| ${name} | ${Object.values(m).map((x) => f(x["recall@10"])).join(" | ")} |`)
    .join("\n");
  const configs = Object.keys(Object.values(r.by_setting)[0] ?? {});
  return [
    `leave-one-${r.fold_by}-out: ${countOf(r.conversations, "conversation")}, ${countOf(r.questions, "question")}, ${countOf(r.settings.length, "setting")}, chosen by ${r.select_by} (${r.took_s} s)`,
    "",
    head,
    row("all channels", r.overall),
    ...channels.map(([name, c]) => row(name, c)),
    "",
    "| category | default R@10 | cross-validated R@10 |\n|---|---:|---:|",
    cats,
    "",
    "| held out | questions | default R@10 there | best in-sample R@10 there | chosen on the others | R@10 on the others | R@10 held out (cross-validated) |\n|---|---:|---:|---:|---|---:|---:|",
    folds,
    "",
    `| setting (in-sample R@10) | ${configs.join(" | ")} |\n|---|${configs.map(() => "---:").join("|")}|`,
    settings,
  ].join("\n");
}
