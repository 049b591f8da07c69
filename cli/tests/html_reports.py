"""The pages of `tlbf check --html` and `tlbf mutate --html` as a person sees
them: each is rendered in headless Chromium with the network blocked, and the
test reads what the browser drew, not the file tlbf wrote. A screenshot of
each goes into OUT_DIR for people to look at.

    html_reports.py check TLBF_BINARY OUT_DIR
    html_reports.py mutate TLBF_BINARY OUT_DIR VIEWER_BUNDLE

VIEWER_BUNDLE is where the build put mutation-test-elements.js, or "" when it
was built without it (no npm). Exit 77 (a skip under ctest) when Chromium is
missing or the build has no viewer; scripts/setup installs both.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
# Text an implementation or a suite may write; if it ever became markup, the
# page would run it or show an element of its own.
HOSTILE = '<script>document.title="pwned"</script><img src=x>'


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """Headless Chromium that can reach nothing: no proxy answers on port 9, no
    name resolves. Its profile is a temporary folder, removed at the end."""

    def __init__(self, binary):
        self.binary = binary
        self.profile = tempfile.mkdtemp(prefix="tlbf_chromium_")
        self.seconds = 0.0

    def close(self):
        shutil.rmtree(self.profile, ignore_errors=True)

    def run(self, url, *action):
        command = [self.binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   "--user-data-dir=" + self.profile, "--proxy-server=127.0.0.1:9",
                   "--host-resolver-rules=MAP * ~NOTFOUND", "--virtual-time-budget=15000",
                   "--run-all-compositor-stages-before-draw", "--window-size=1280,1400", *action, url]
        start = time.monotonic()
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        self.seconds += time.monotonic() - start
        if result.returncode != 0:
            sys.exit("chromium failed (exit %d): %s" % (result.returncode, result.stderr[-2000:]))
        return result.stdout

    def dom(self, path, fragment=""):
        return self.run("file://" + os.path.abspath(path) + fragment, "--dump-dom")

    def screenshot(self, path, png, fragment=""):
        self.run("file://" + os.path.abspath(path) + fragment, "--screenshot=" + png)
        if not os.path.getsize(png):
            sys.exit("chromium wrote an empty screenshot " + png)


class Page(html.parser.HTMLParser):
    """The rendered DOM: its elements (tag, attributes, the text inside) and the text a person reads."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements = []
        self.open = []
        self.words = []
        self.hidden = 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": []}
        self.elements.append(element)
        if tag in ("style", "script", "title", "head"):
            self.hidden += 1
            element["hides"] = True
        if tag not in ("meta", "link", "img", "br", "input"):
            self.open.append(element)

    def handle_endtag(self, tag):
        while self.open:
            element = self.open.pop()
            if element.get("hides"):
                self.hidden -= 1
            if element["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self.open:
            element["text"].append(data)
        if not self.hidden:
            self.words.append(data)

    def text(self):
        return re.sub(r"\s+", " ", " ".join(self.words))

    def tags(self, tag):
        return [e for e in self.elements if e["tag"] == tag]

    def by_id(self, ident):
        found = [e for e in self.elements if e["attrs"].get("id") == ident]
        return found[0] if found else None


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def check_page(tlbf, out, browser):
    """Two implementations, the second answering every 64-bit hash with markup:
    the verdicts, its failing cases by name, the matrix's links, and the markup
    shown as text, never made into elements."""
    work = tempfile.mkdtemp(prefix="tlbf_check_html_")
    try:
        reference = "'%s' serve" % tlbf
        hostile = reference + " | sed -u 's#^ok [0-9a-f]\\{16\\}$#ok %s#'" % HOSTILE
        page = os.path.join(work, "check.html")
        report = os.path.join(work, "check.json")
        run = subprocess.run([tlbf, "check", "--impl", reference, "--impl", hostile, "--html", page, "--json", report],
                             capture_output=True, text=True, timeout=600)
        expect(run.returncode == 1, "tlbf check exit %d, expected 1 (one does not conform):\n%s%s"
               % (run.returncode, run.stdout[-3000:], run.stderr[-3000:]))
        reports = json.load(open(report))
        failing = [c["name"] for c in reports[1]["cases"] if c["outcome"] == "FAIL"]
        expect(reports[0]["conforms"] and not reports[1]["conforms"] and failing,
               "the --json report should have the reference conform and the hostile one fail")

        dom = Page(browser.dom(page))
        text = dom.text()
        print("check page: %d elements, %d characters of text, %d failing cases in --json"
              % (len(dom.elements), len(text), len(failing)))
        h1 = " ".join(dom.tags("h1")[0]["text"]) if dom.tags("h1") else ""
        expect("1 of 2 implementations conform to TLBF v1" in h1, "the heading shows no verdict: %r" % h1)
        expect("verdict: conforms to TLBF v1, every capability checked" in text, "no verdict of #1 in the page")
        expect("verdict: does NOT conform to TLBF v1" in text, "no verdict of #2 in the page")
        for name in failing:
            expect(name in text, "the failing case %s is not on the page" % name)
        # The implementation's markup is text a person reads, and nothing else.
        expect(HOSTILE in text, "the hostile answer is not shown as text")
        expect(not dom.tags("script"), "the page has a script element: an answer became markup")
        expect(not dom.tags("img"), "the page has an img element: an answer became markup")
        title = " ".join(dom.tags("title")[0]["text"])
        expect("pwned" not in title, "a script from the implementation ran")
        # Every red cell of the matrix leads to #2's failures in its group; #1 has none.
        links = [a for a in dom.tags("a") if a["attrs"].get("href", "").startswith("#impl")]
        cells = [a["attrs"]["href"][1:] for a in links if re.fullmatch(r"\d+/\d+", "".join(a["text"]))]
        expect(cells, "the parity matrix links no cell to failures")
        for anchor in cells:
            expect(anchor.startswith("impl2-"), "a cell links to %s, but only #2 fails" % anchor)
            target = dom.by_id(anchor)
            expect(target is not None, "a cell links to #%s, which is not on the page" % anchor)
            shown = " ".join(target["text"])
            expect(any(name in shown for name in failing), "#%s shows none of #2's failing cases" % anchor)
        grouped = {name.split("/")[0] + "/" + name.split("/")[1] for name in failing}
        expect(len(cells) == len(grouped), "%d red cells for %d failing groups" % (len(cells), len(grouped)))
        png = os.path.join(out, "check.png")
        shutil.copy(page, os.path.join(out, "check.html"))
        browser.screenshot(page, png)
        print("screenshot: " + png)
    finally:
        shutil.rmtree(work, ignore_errors=True)


# Appended to a copy of the mutate page, for the test only: once the app has
# drawn, it visits the view of every file and writes what the shadow DOM shows
# (its text, and each mutant's id, status and whether it is drawn) into a <pre>
# that --dump-dom prints.
PROBE = """
<script>
(function () {
  function text(node, out) {
    if (node.nodeType === 3) { out.push(node.data); return; }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    if (node.nodeType === 1 && getComputedStyle(node).display === 'none') return;
    if (node.shadowRoot) text(node.shadowRoot, out);
    for (const child of node.childNodes) text(child, out);
  }
  function all(root, selector, out) {
    if (root.shadowRoot) all(root.shadowRoot, selector, out);
    for (const e of root.querySelectorAll('*')) {
      if (e.matches(selector)) out.push(e);
      if (e.shadowRoot) all(e.shadowRoot, selector, out);
    }
    return out;
  }
  const app = document.querySelector('mutation-test-report-app');
  const seen = {views: {}, mutants: {}, title: ''};
  function look(name) {
    const words = [];
    text(app, words);
    seen.views[name] = words.join(' ').replace(/\\s+/g, ' ');
    for (const dot of all(app, '[data-mutant-id]', [])) {
      const id = dot.getAttribute('data-mutant-id');
      const title = dot.getAttribute('title') || '';
      if (title) seen.mutants[id] = {title: title, drawn: dot.getClientRects().length > 0};
    }
  }
  function finish() {
    seen.title = document.title;
    seen.scripts = document.querySelectorAll('script').length;
    const pre = document.createElement('pre');
    pre.id = 'tlbf-probe';
    pre.textContent = JSON.stringify(seen);
    document.body.appendChild(pre);
  }
  setTimeout(function () {
    look('root');
    // The file table's links, files and folders alike (href is the page's URL and #mutant/PATH).
    const files = [...new Set(all(app, 'a[href*="#mutant/"]', []).map(a => '#' + a.getAttribute('href').split('#')[1]))];
    seen.files = files;
    let i = 0;
    (function next() {
      if (i === files.length) { finish(); return; }
      const hash = files[i++];
      location.hash = hash;
      setTimeout(function () { look(hash); next(); }, 1500);
    })();
  }, 2000);
})();
</script>
"""


def mutate_page(tlbf, out, browser, viewer):
    """A weak suite (the hash vectors only) graded with --html: the score and
    every mutant's status as tlbf printed them, shown by the viewer offline; a
    suite's "</script>" stays text."""
    work = tempfile.mkdtemp(prefix="tlbf_mutate_html_")
    try:
        page = os.path.join(work, "mutate.html")
        report = os.path.join(work, "mutate.json")
        suite = ("'%s' check --filter 'vectors/hash/*' >/dev/null 2>&1 && exit 0; echo 'FAILED %s'; exit 1"
                 % (tlbf, HOSTILE.replace("'", "")))
        run = subprocess.run([tlbf, "mutate", "--html", page, "--json", report, "--", "sh", "-c", suite],
                             capture_output=True, text=True, timeout=1800)
        table = dict(re.findall(r"^(s\d\d)\s+(killed|SURVIVED|timeout|error)\s", run.stdout, re.M))
        score = re.search(r"^score: (\d+)/(\d+) = ", run.stdout, re.M)
        expect(run.returncode in (0, 1) and table and score,
               "tlbf mutate exit %d:\n%s%s" % (run.returncode, run.stdout[-3000:], run.stderr[-3000:]))
        statuses = set(table.values())
        expect("killed" in statuses and "SURVIVED" in statuses,
               "the hash-only suite should kill some mutants and miss others: %s" % table)
        reasons = [m["statusReason"] for f in json.load(open(report))["files"].values() for m in f["mutants"]]
        expect(any("</script>" in r for r in reasons), "no suite output with </script> reached the report")

        probed = os.path.join(work, "mutate-probed.html")
        with open(page) as f, open(probed, "w") as g:
            g.write(f.read() + PROBE)
        dom = Page(browser.dom(probed))
        pre = dom.by_id("tlbf-probe")
        expect(pre is not None, "the probe never finished: the page did not draw (is it waiting for the network?)")
        seen = json.loads("".join(pre["text"]))
        root = seen["views"].get("root", "")
        print("mutate page: %d files, mutants drawn %s" % (len(seen["files"]), sorted(seen["mutants"])))
        # The viewer's own score (from the statuses) is tlbf's, as a percentage.
        killed, ran = int(score.group(1)), int(score.group(2))
        percent = "%.2f" % (100.0 * killed / ran)
        expect(percent in root, "the score %s (tlbf: %d/%d) is not on the page: %s" % (percent, killed, ran, root[:1500]))
        words = {"killed": "Killed", "SURVIVED": "Survived", "timeout": "Timeout", "error": "RuntimeError"}
        for ident, outcome in sorted(table.items()):
            mutant = seen["mutants"].get(ident)
            expect(mutant is not None, "mutant %s is not on the page" % ident)
            expect(mutant["title"].endswith(" " + words[outcome]),
                   "mutant %s shows '%s', tlbf says %s" % (ident, mutant["title"], outcome))
            if outcome == "SURVIVED":
                expect(mutant["drawn"], "the surviving mutant %s is not drawn in its file" % ident)
        expect(set(seen["mutants"]) == set(table), "the page shows mutants %s, tlbf ran %s"
               % (sorted(seen["mutants"]), sorted(table)))
        # The suite's "</script><script>..." stayed inside the report's JSON.
        expect("pwned" not in seen["title"], "a script from the suite's output ran")
        expect(seen["scripts"] == 4, "%d script elements; the page's three and the probe expected" % seen["scripts"])

        # The same page with the viewer from the network instead of inline
        # draws nothing here: the network is blocked, so the page above drew offline.
        bundle = open(viewer).read()
        with open(page) as f:
            text = f.read()
        start = text.index(bundle)
        online = os.path.join(work, "online.html")
        with open(online, "w") as g:
            g.write(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text[:start - len("<script>\n")])
                    + '<script src="https://cdn.jsdelivr.net/npm/mutation-testing-elements@3.8.4/dist/'
                      'mutation-test-elements.js">' + text[start + len(bundle) + 1:] + PROBE)
        pre = Page(browser.dom(online)).by_id("tlbf-probe")
        expect(pre is None or "%" not in json.loads("".join(pre["text"]))["views"]["root"] and
               not json.loads("".join(pre["text"]))["mutants"],
               "a viewer from the network was drawn: the network is not blocked, and the test proves nothing")

        # The root, and the view of a file with a killed mutant (the viewer drops the common "oracle/").
        files = json.load(open(report))["files"]
        with_kill = [path for path, f in files.items() if any(m["status"] == "Killed" for m in f["mutants"])]
        views = [f for f in seen["files"] if any(path.endswith(f.split("#mutant/")[1]) for path in with_kill)]
        shutil.copy(page, os.path.join(out, "mutate.html"))
        for name, fragment in [("mutate", "")] + [("mutate-file", f) for f in views[:1]]:
            png = os.path.join(out, name + ".png")
            browser.screenshot(page, png, fragment)
            print("screenshot: " + png)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    which, tlbf, out = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    binary = chromium()
    if binary is None:
        print("SKIP: chromium is missing (scripts/setup installs Debian's chromium); the HTML pages were not rendered")
        return SKIP
    viewer = None
    if which == "mutate":
        viewer = sys.argv[4]
        if not viewer:
            print("SKIP: this build has no viewer for tlbf mutate --html (it fetches it with npm: scripts/setup "
                  "installs npm)")
            return SKIP
    os.makedirs(out, exist_ok=True)
    browser = Browser(binary)
    start = time.monotonic()
    try:
        if which == "check":
            check_page(tlbf, out, browser)
        else:
            mutate_page(tlbf, out, browser, viewer)
    finally:
        browser.close()
    print("passed: %.1f s in all, %.1f s of it in chromium" % (time.monotonic() - start, browser.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
