"""axe-core finds no serious or critical violation on a sample of pages in every language."""

from __future__ import annotations

import pytest

from browser.sitecheck import AXE_JS, fail_if, visit

pytestmark = pytest.mark.xdist_group("browser")

SAMPLE = ["", "play/", "tutorial/04-marriages-and-claiming/", "examples/07-marriage-claim/",
          "examples/05-closing/", "faq/"]
IMPACTS = ("serious", "critical")

_RUN_AXE = """
async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160),
                              summary: (n.failureSummary || '').split('\\n').slice(0, 2).join(' ')}))
  }));
}
"""


def test_axe_finds_no_serious_violation(page, monitor, site, base_url, lang):
    assert AXE_JS.is_file(), f"{AXE_JS} is missing: run `make test` (npm ci installs axe-core)"
    problems = []
    for rel in SAMPLE:
        path = site.url_path(lang, rel)
        if not (site.root / path / "index.html").is_file():
            problems.append(f"/{path}: not built")
            continue
        visit(monitor, base_url + path, expect_ok=True)
        page.add_script_tag(path=str(AXE_JS))
        for v in page.evaluate(_RUN_AXE):
            if v["impact"] not in IMPACTS:
                continue
            nodes = v["nodes"]
            shown = "; ".join(f"{n['target']} {' '.join(n['html'].split())[:100]!r}"
                              for n in nodes[:3])
            more = f" (+{len(nodes) - 3} more)" if len(nodes) > 3 else ""
            problems.append(f"/{path}: {v['impact']} {v['id']} ({v['help']}): {shown}{more}"
                            + (f" — {nodes[0]['summary']}" if nodes and nodes[0]["summary"] else ""))
    fail_if(problems, f"[{lang}] axe-core serious/critical violations", limit=40)
