import type { ReactNode } from "react";

/**
 * Renders a translated sentence that marks its link text as `<tag>…</tag>`, so each language places the link where
 * its grammar wants it. Plain string handling: react-i18next's Trans would add its HTML parser to the first load.
 */
export function TextWithLink({ text, tag, renderLink }: { text: string; tag: string; renderLink: (label: string) => ReactNode }) {
  const match = new RegExp(`^(.*)<${tag}>(.*)</${tag}>(.*)$`, "s").exec(text);
  if (!match) return <>{text}</>;
  const [, before = "", label = "", after = ""] = match;
  return (
    <>
      {before}
      {renderLink(label)}
      {after}
    </>
  );
}
