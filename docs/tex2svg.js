// TeX -> SVG at build time with the site's own MathJax (docs/conf.py, typeset_pages).
// stdin:  {"mathjax": DIR, "pages": [[[tex, display], ...], ...]}
// stdout: {"css": STYLESHEET, "pages": [{"html": [MJX-CONTAINER, ...], "defs": SVG, "errors": [i]}]}
// MathJax 3's TeX input (the packages of tex-chtml.js; other extensions autoloaded), SVG output
// whose glyphs each page holds once ("defs": MathJax's global font cache, emptied per page; no
// font files), and beside each SVG the assistive MathML a screen reader reads, as MathJax does
// in the browser.
"use strict";
let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  require(job.mathjax + "/node-main.js").init({
    loader: {paths: {mathjax: job.mathjax}, load: ["adaptors/liteDOM", "input/tex", "output/svg",
                                                   "a11y/assistive-mml"]},
    tex: {packages: {"[+]": ["ams", "newcommand", "noundefined"]}},
    svg: {fontCache: "global"},
    startup: {typeset: false},
  }).then((MathJax) => {
    const adaptor = MathJax.startup.adaptor, cache = MathJax.startup.output.fontCache;
    const pages = job.pages.map((items) => {
      cache.clearCache();
      const html = [], errors = [];
      items.forEach(([tex, display], i) => {
        const text = adaptor.outerHTML(MathJax.tex2svg(tex, {display: !!display}));
        if (text.includes('data-mml-node="merror"')) errors.push(i);
        html.push(text);
      });
      return {html, errors, defs: adaptor.outerHTML(cache.getCache())};
    });
    const css = adaptor.textContent(MathJax.svgStylesheet());
    process.stdout.write(JSON.stringify({css, pages}));
  }).catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
});
