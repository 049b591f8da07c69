// The class page a course author reads (docs/mutants.md, "The class page"):
// one matrix of learners by bugs instead of a wall of chaff ids in each row.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "tlbf/markup.hpp"
#include "tlbf/mutants/class_summary.hpp"

namespace tlbf::mutants {
namespace {

// How many learners the page names as catching the least.
constexpr std::size_t kWeakest = 5;

// What a graded row says of one bug: "caught", "survived" or "not-run".
std::string cell_of(const ClassRow& row, const std::string& bug) {
  for (const auto& [id, outcome] : row.outcomes) {
    if (id == bug) return outcome;
  }
  return "not-run";
}

// Whether the bug survived by replay, not by a run.
bool survived_by_replay(const ClassRow& row, const std::string& bug) {
  return row.replay && std::find(row.replay->replayed.begin(), row.replay->replayed.end(), bug) !=
                           row.replay->replayed.end();
}

// Per bug, how many learners caught it and how many ran it.
struct Tally {
  std::map<std::string, int> caught, ran;
};

Tally tally(const ClassSummary& summary) {
  Tally t;
  for (const auto& row : summary.rows) {
    for (const auto& [id, outcome] : row.outcomes) {
      ++t.ran[id];
      t.caught[id] += outcome == "caught";
    }
  }
  return t;
}

std::string page_head(const ClassSummary& summary) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         // Its script and style inline; nothing from anywhere else.
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
         "'unsafe-inline'; script-src 'unsafe-inline'\">\n"
         "<title>tlbf grade: " +
         escape_html(summary.kind) +
         " class</title>\n<style>\n"
         "body { font-family: system-ui, sans-serif; margin: 1.5em; }\n"
         "table { border-collapse: collapse; }\n"
         "td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: bottom; "
         "}\n"
         ".banner { font-size: 1.2em; margin-bottom: 1em; }\n"
         "tr.meets td.name { background: #d8f5d0; } tr.short td.name { background: #fbd9d3; }\n"
         "tr.stopped td.name { background: #fdf0c4; }\n"
         ".top { display: flex; flex-wrap: wrap; gap: 0 3em; align-items: flex-start; }\n"
         ".top section { max-width: 44em; } ul.chaffs { columns: 2; font-size: 0.85em; }\n"
         // The ids upright in a span, not in the cell: a cell written upright keeps its width.
         "#matrix th.bug span { writing-mode: vertical-rl; transform: rotate(180deg); display: inline-block; "
         "}\n"
         "#matrix th.bug { padding: 0.3em 0 0.2em; font-size: 10px; cursor: pointer; }\n"
         "#matrix th.mutant { font-weight: bold; } #matrix th.chaff { font-weight: normal; color: #444; }\n"
         "#matrix td.cell, #matrix th.bug { width: 11px; min-width: 11px; max-width: 11px; }\n"
         "#matrix td.cell { padding: 0; text-align: center; font-size: 8px; border-color: #fff; }\n"
         "#matrix td { white-space: nowrap; }\n"
         "#matrix th.sorted { background: #ffe08a; }\n"
         "td.caught, span.caught { background: #7cc47c; } td.survived, span.survived { background: #e06666; "
         "color: #fff; }\n"
         "td.not-run, span.not-run { background: #eee; color: #999; }\n"
         // Survived by replay: the same verdict, in a lighter red, with its own mark.
         "td.survived.replayed, span.survived.replayed { background: #f0a8a8; color: #600; }\n"
         "td.nondet { background: #fbd9d3; font-weight: bold; }\n"
         ".legend span { display: inline-block; min-width: 1.4em; text-align: center; margin: 0 0.3em; }\n"
         "button { margin: 0 0.2em; }\n"
         "</style>\n</head>\n<body>\n";
}

std::string bar_sentence(const ClassSummary& summary) {
  int meeting = 0;
  for (const auto& r : summary.rows) meeting += r.verdict == "meets";
  char bar[64];
  std::snprintf(bar, sizeof bar, "%.2f", summary.threshold);
  std::string required;
  for (const auto& id : summary.required) required += (required.empty() ? "" : " ") + id;
  return "<h1>tlbf grade: a class of " + std::to_string(summary.rows.size()) + " (" +
         escape_html(summary.kind) + ")</h1>\n<p class=\"banner\" id=\"summary\">" + std::to_string(meeting) +
         " of " + std::to_string(summary.rows.size()) + " meet the bar: score at least " + bar +
         " and every required mutant (" + escape_html(required) + ") killed.</p>\n";
}

// A bug some learner ran and none caught, in a list.
std::string uncaught_item(const Bug& bug, int survived) {
  return "<li data-bug=\"" + escape_html(bug.id) + "\"><b>" + escape_html(bug.id) + "</b> (survived in " +
         std::to_string(survived) + "): " + escape_html(bug.description) + "</li>\n";
}

// The bugs some learner ran and none caught: the planted ones in full, the
// chaffs folded away (a course may have sixty), each kind in id order.
std::string uncaught_section(const ClassSummary& summary, const Tally& t) {
  std::string mutants, chaffs;
  int chaffs_missed = 0, chaffs_all = 0;
  for (const auto& bug : summary.bugs) {
    const bool chaff = bug.kind == "chaff";
    chaffs_all += chaff;
    const auto ran = t.ran.find(bug.id);
    if (ran == t.ran.end() || t.caught.at(bug.id) > 0) continue;
    (chaff ? chaffs : mutants) += uncaught_item(bug, ran->second);
    chaffs_missed += chaff;
  }
  std::string out =
      "<section>\n<h2>Bugs no learner caught</h2>\n<ul id=\"uncaught\">\n" +
      (mutants.empty() ? "<li>No planted bug: each that ran was caught by some learner.</li>\n" : mutants) +
      "</ul>\n";
  if (chaffs_all > 0) {
    out += "<details id=\"uncaught-chaffs\"><summary>" +
           (chaffs_missed == 0
                ? std::string("No chaff: each that ran was caught by some learner.")
                : std::to_string(chaffs_missed) + " of the " + std::to_string(chaffs_all) + " chaffs") +
           "</summary>\n<ul class=\"chaffs\">\n" + chaffs + "</ul>\n</details>\n";
  }
  return out + "</section>\n";
}

// The graded learners with the fewest planted bugs caught, then the fewest chaffs.
std::string weakest_section(const ClassSummary& summary) {
  std::vector<const ClassRow*> graded;
  for (const auto& r : summary.rows) {
    if (!r.outcomes.empty()) graded.push_back(&r);
  }
  std::stable_sort(graded.begin(), graded.end(), [](const ClassRow* a, const ClassRow* b) {
    return std::make_pair(a->killed, a->chaffs_killed) < std::make_pair(b->killed, b->chaffs_killed);
  });
  std::string items;
  for (std::size_t i = 0; i < graded.size() && i < kWeakest; ++i) {
    const ClassRow& r = *graded[i];
    items += "<li data-learner=\"" + escape_html(r.name) + "\">" + escape_html(r.name) + ": " +
             std::to_string(r.killed) + " of " + std::to_string(r.ran) + " planted bugs" +
             (r.chaffs_ran > 0
                  ? ", " + std::to_string(r.chaffs_killed) + " of " + std::to_string(r.chaffs_ran) + " chaffs"
                  : "") +
             "</li>\n";
  }
  return "<section>\n<h2>Learners who catch the least</h2>\n<ol id=\"weakest\">\n" +
         (items.empty() ? "<li>No learner was graded.</li>\n" : items) + "</ol>\n</section>\n";
}

std::string stopped_section(const ClassSummary& summary) {
  std::string items;
  for (const auto& r : summary.rows) {
    if (r.reason.empty()) continue;
    items += "<li>" + escape_html(r.name) + " (" + escape_html(r.verdict) +
             "): " + escape_html(r.reason.substr(0, 400)) + "</li>\n";
  }
  return items.empty() ? "" : "<h2>Gradings that stopped</h2>\n<ul id=\"stopped\">\n" + items + "</ul>\n";
}

// The suites whose clean runs sent different requests: an unseeded random
// test, which a course author must see even when the grade is fine.
std::string not_deterministic_section(const ClassSummary& summary) {
  std::string items;
  for (const auto& r : summary.rows) {
    if (!not_deterministic(r)) continue;
    items += "<li data-suite=\"" + escape_html(r.name) + "\">" + escape_html(r.name) + " (" +
             escape_html(r.verdict) + "): the clean runs did not send the same requests (" +
             escape_html(r.replay->difference.substr(0, 400)) + "); seed its random tests</li>\n";
  }
  return items.empty()
             ? ""
             : "<h2>Suites that are NOT deterministic</h2>\n<p>Every mutant and chaff of theirs was "
               "run, none replayed.</p>\n<ul id=\"not-deterministic\">\n" +
                   items + "</ul>\n";
}

std::string header_row(const ClassSummary& summary, const Tally& t) {
  std::string out =
      "<thead><tr><th data-sort=\"name\" title=\"sort the learners by name\">learner</th><th>verdict</th>"
      "<th>score</th><th>chaffs</th><th title=\"mutants and chaffs that survived by replay, not run, of "
      "those graded\">replayed</th>";
  for (std::size_t i = 0; i < summary.bugs.size(); ++i) {
    const Bug& bug = summary.bugs[i];
    const int caught = t.caught.count(bug.id) ? t.caught.at(bug.id) : 0;
    const std::string id = escape_html(bug.id);
    out += "<th class=\"bug " + escape_html(bug.kind) + "\" data-bug=\"" + id + "\" data-index=\"" +
           std::to_string(i) + "\" data-caught=\"" + std::to_string(caught) + "\" title=\"" + id + " (" +
           escape_html(bug.kind) + "): " + escape_html(bug.description) + "; caught by " +
           std::to_string(caught) + "\"><span>" + id + "</span></th>";
  }
  return out + "</tr></thead>\n";
}

std::string learner_row(const ClassSummary& summary, const ClassRow& r) {
  const std::string css = r.verdict == "meets" ? "meets" : r.verdict == "short" ? "short" : "stopped";
  const std::string name = escape_html(r.name);
  const std::string link =
      r.report.empty() ? name : "<a href=\"" + escape_html(r.report) + "\">" + name + "</a>";
  std::string out =
      "<tr class=\"" + css + "\" data-name=\"" + name + "\" data-killed=\"" + std::to_string(r.killed) +
      "\" data-chaffs=\"" + std::to_string(r.chaffs_killed) + "\"><td class=\"name\">" + link + "</td><td>" +
      escape_html(r.verdict) + "</td><td>" +
      (r.ran > 0 ? std::to_string(r.killed) + "/" + std::to_string(r.ran) : "") + "</td><td>" +
      (r.chaffs_ran > 0 ? std::to_string(r.chaffs_killed) + "/" + std::to_string(r.chaffs_ran) : "") +
      "</td><td class=\"replay" + (not_deterministic(r) ? " nondet" : "") + "\" title=\"" +
      escape_html(replay_words(r)) + "\">" + escape_html(replay_cell(r)) + "</td>";
  for (const auto& bug : summary.bugs) {
    const std::string cell = cell_of(r, bug.id);
    const bool by_replay = cell == "survived" && survived_by_replay(r, bug.id);
    const std::string mark = cell == "caught"     ? "&#x2713;"
                             : by_replay          ? "&#x21BA;"
                             : cell == "survived" ? "&#x2717;"
                                                  : "";
    out += "<td class=\"cell " + cell + (by_replay ? " replayed" : "") + "\" data-bug=\"" +
           escape_html(bug.id) + "\" data-outcome=\"" + cell + "\"" +
           (by_replay ? " data-replayed=\"1\"" : "") + " title=\"" + name + ", " + escape_html(bug.id) +
           ": " + cell + (by_replay ? " by replay, not run" : "") + "\">" + mark + "</td>";
  }
  return out + "</tr>\n";
}

// Sorts the learners (rows) by name, by bugs caught, or by one bug (who
// missed it first), and the bugs (columns) by id or by how many caught each,
// from the buttons, a click on a column's head, or the page's address
// (#learners=caught&bugs=caught, #learners=s04).
constexpr const char* kSortScript = R"(<script>
(function () {
  var table = document.getElementById('matrix');
  var body = table.tBodies[0], head = table.tHead.rows[0];
  var fixed = 5;
  function byName(a, b) { return a.dataset.name < b.dataset.name ? -1 : a.dataset.name > b.dataset.name ? 1 : 0; }
  function cellOf(row, bug) {
    for (var i = fixed; i < row.cells.length; i++) if (row.cells[i].dataset.bug === bug) return row.cells[i];
    return null;
  }
  function rank(row, bug) {
    var c = cellOf(row, bug), o = c ? c.dataset.outcome : 'not-run';
    return o === 'survived' ? 0 : o === 'not-run' ? 1 : 2;
  }
  function sortLearners(key) {
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      if (key === 'name') return byName(a, b);
      if (key === 'caught') return (a.dataset.killed - b.dataset.killed) || (a.dataset.chaffs - b.dataset.chaffs) || byName(a, b);
      return (rank(a, key) - rank(b, key)) || byName(a, b);
    });
    rows.forEach(function (r) { body.appendChild(r); });
    table.dataset.learners = key;
    Array.prototype.forEach.call(head.cells, function (c) { c.classList.toggle('sorted', c.dataset.bug === key); });
  }
  function sortBugs(key) {
    var heads = Array.prototype.slice.call(head.cells, fixed);
    heads.sort(function (a, b) {
      return (key === 'caught' ? a.dataset.caught - b.dataset.caught : 0) || (a.dataset.index - b.dataset.index);
    });
    var order = heads.map(function (h) { return h.dataset.bug; });
    Array.prototype.forEach.call(table.rows, function (row) {
      var cells = {};
      for (var i = fixed; i < row.cells.length; i++) cells[row.cells[i].dataset.bug] = row.cells[i];
      order.forEach(function (bug) { if (cells[bug]) row.appendChild(cells[bug]); });
    });
    table.dataset.bugs = key;
  }
  head.addEventListener('click', function (e) {
    var th = e.target.closest('th');
    if (th && th.dataset.bug) sortLearners(th.dataset.bug);
    else if (th && th.dataset.sort) sortLearners(th.dataset.sort);
  });
  document.querySelectorAll('button[data-learners]').forEach(function (b) {
    b.addEventListener('click', function () { sortLearners(b.dataset.learners); });
  });
  document.querySelectorAll('button[data-bugs]').forEach(function (b) {
    b.addEventListener('click', function () { sortBugs(b.dataset.bugs); });
  });
  location.hash.slice(1).split('&').forEach(function (part) {
    var kv = part.split('='), value = decodeURIComponent(kv[1] || '');
    if (kv[0] === 'learners' && value) sortLearners(value);
    if (kv[0] === 'bugs' && (value === 'id' || value === 'caught')) sortBugs(value);
  });
})();
</script>
)";

std::string matrix_section(const ClassSummary& summary, const Tally& t) {
  std::string out =
      "<h2>Every learner by every bug</h2>\n<p class=\"legend\"><span class=\"caught\">&#x2713;</span>caught "
      "<span class=\"survived\">&#x2717;</span>survived <span class=\"survived replayed\">&#x21BA;</span>"
      "survived by replay: it answered the suite's requests as the reference did, so it was not run "
      "<span class=\"not-run\">&#xa0;</span>not run "
      "(the grading stopped, or chaffs none). Planted bugs in bold, chaffs after them.</p>\n"
      "<p class=\"sort\">Sort the learners by <button data-learners=\"name\">name</button>"
      "<button data-learners=\"caught\">bugs caught, fewest first</button>, the bugs by "
      "<button data-bugs=\"id\">id</button><button data-bugs=\"caught\">learners who caught them, fewest "
      "first</button>; a click on a bug's column puts the learners who missed it first.</p>\n"
      "<noscript><p>Sorting needs this page's own script.</p></noscript>\n"
      "<table id=\"matrix\" data-learners=\"name\" data-bugs=\"id\">\n" +
      header_row(summary, t) + "<tbody>\n";
  for (const auto& r : summary.rows) out += learner_row(summary, r);
  return out + "</tbody>\n</table>\n";
}

}  // namespace

std::string class_summary_html(const ClassSummary& summary) {
  const Tally t = tally(summary);
  // The two lists side by side above the matrix, so that it starts within the first screen.
  return page_head(summary) + bar_sentence(summary) + "<div class=\"top\">\n" + uncaught_section(summary, t) +
         weakest_section(summary) + "</div>\n" + stopped_section(summary) +
         not_deterministic_section(summary) + matrix_section(summary, t) + kSortScript + "</body>\n</html>\n";
}

}  // namespace tlbf::mutants
