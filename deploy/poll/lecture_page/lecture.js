// The lecture page (deploy/poll/lecture.py): follows the lecturer by long poll, votes by POST.
(function () {
  "use strict";
  var meta = function (n) { return document.querySelector('meta[name="' + n + '"]').content; };
  var XSRF = meta("xsrf"), BASE = meta("prefix") + "lecture/api/";
  var $ = function (id) { return document.getElementById(id); };
  var state = null, version = null, sending = false, failures = 0;
  var shownExplorer = null, explorerModule = null;
  var ROUND_TEXT = { 1: "Vote 1 is open: choose an answer (you can change it until the lecturer closes the vote).",
                     2: "Vote 2 is open: after discussing, choose again (you can change it until it closes).",
                     observation: "What did the explorer show? Choose what you saw." };

  // ``retries``: how often a 503 ("the hub could not check the login; try again": a busy hub)
  // is tried again, after 0.5, 1, 2 s. A vote may be: sending it twice counts it once.
  function api(path, options, retries) {
    options = options || {};
    options.headers = Object.assign({ "X-XSRFToken": XSRF }, options.headers || {});
    options.credentials = "same-origin";
    var attempt = function (left, delay) {
      return fetch(BASE + path, options).then(function (r) {
        if (r.status === 503 && left > 0) {
          return new Promise(function (ok) { setTimeout(ok, delay); })
            .then(function () { return attempt(left - 1, delay * 2); });
        }
        return r.json().catch(function () { return {}; }).then(function (body) {
          if (!r.ok) { var e = new Error(body.error || ("HTTP " + r.status)); e.status = r.status; throw e; }
          return body;
        });
      });
    };
    return attempt(retries || 0, 500);
  }

  function say(text, error) {
    var s = $("status");
    s.textContent = text;
    s.className = "status" + (error ? " error" : "");
  }

  function openRound(q) { return q.revealed && q.open !== "observation" ? null : q.open; }

  // The question's explorer: the site's embedded form (its own cacheable resource, fetched
  // once per version), mounted by explorer.js's mountStaticExplorers; the gridded controls
  // move with no kernel, the others are shown disabled as on the site.
  function loadModule(versions) {
    if (!explorerModule) {
      var base = meta("prefix") + "lecture/static/";
      var link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = base + "explorer.css?v=" + versions[1];
      document.head.appendChild(link);
      explorerModule = import(base + "explorer.js?v=" + versions[0]);
    }
    return explorerModule;
  }

  function showExplorer(q) {
    var want = q && q.known && q.explorer && q.explorer_module ? q.id + "|" + q.explorer : null;
    if (want === shownExplorer) return;
    shownExplorer = want;
    var box = $("explorer");
    box.textContent = "";
    box.hidden = !want;
    delete document.body.dataset.explorer;
    if (!want) return;
    box.innerHTML = '<p class="status">Loading the explorer…</p>';
    // one layout's states: the phone's narrow figure where the page is narrow (explorer.js
    // NARROW_BELOW), the wide one on a laptop
    var layout = (box.clientWidth || window.innerWidth) < 600 ? "narrow" : "wide";
    function fetchLayout(name) {  // the other layout, when the phone is turned (explorer.js)
      return fetch(BASE + "explorer/" + encodeURIComponent(q.id) + "?v=" + q.explorer +
                   "&layout=" + name,
                   { headers: { "X-XSRFToken": XSRF }, credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.text();
        });
    }
    var payload = fetchLayout(layout);
    Promise.all([loadModule(q.explorer_module), payload]).then(function (got) {
      if (shownExplorer !== want) return null;
      var fig = document.createElement("figure");
      fig.className = "genviz-explorer genviz-static-explorer";
      var data = document.createElement("script");
      data.type = "application/json";
      data.className = "genviz-explorer-data";
      data.textContent = got[1];
      fig.appendChild(data);
      fig.appendChild(document.createElement("figcaption"));
      box.textContent = "";
      box.appendChild(fig);
      var other = function (name) { return fetchLayout(name).then(JSON.parse); };
      return got[0].mountStaticExplorers(box, { fetchLayout: other }).then(function () {
        if (shownExplorer === want) document.body.dataset.explorer = want;
      });
    }).catch(function (e) {
      if (shownExplorer !== want) return;
      box.innerHTML = '<p class="status error"></p>';
      box.firstChild.textContent = "The explorer could not be loaded (" + e.message +
        "): watch it on the projector.";
      shownExplorer = null;  // tried again at the next change
    });
  }

  function render() {
    var q = state && state.question;
    $("who").textContent = state ? state.user : "";
    // no lecture bundle on the hub (or an unreadable one): say so, not a silent letters-only page
    var noBundle = !!state && !!state.bundle && state.bundle !== "ok";
    $("notice").hidden = !noBundle;
    $("notice").textContent = noBundle ? "This hub has no texts for the questions (lecture " +
      "bundle " + state.bundle + "): options are shown by their letters, the explorer on the " +
      "projector only. Lecturer: the hub's log says how to install it." : "";
    showExplorer(q);
    if (!q) {
      $("question").hidden = true;
      say("Waiting for the lecturer to open a question…");
      return;
    }
    $("question").hidden = false;
    $("prompt").innerHTML = q.known ? q.prompt_html : "Question " + q.id + " (see the projector)";
    var rnd = openRound(q);
    if (q.revealed && rnd === "observation" && q.observation_html) {
      $("round").innerHTML = "Revealed. " + q.observation_html;
    } else if (q.revealed) {
      $("round").textContent = "Revealed.";
    } else {
      $("round").textContent = rnd === null ? "Voting is closed: discuss, and watch the projector." : ROUND_TEXT[rnd];
    }
    say(rnd === null ? "" : "");
    var box = $("options");
    box.textContent = "";
    var chosen = rnd === null ? null : q.mine[String(rnd)];
    for (var i = 0; i < q.options_n; i++) {
      var b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", chosen === i ? "true" : "false");
      b.innerHTML = "<b>(" + q.letters[i] + ")</b> " + (q.known ? q.options_html[i] : "");
      b.disabled = rnd === null || sending;
      if (q.revealed && q.correct && q.correct.indexOf(i) >= 0) b.className = "correct";
      b.dataset.option = String(i);
      b.addEventListener("click", vote);
      box.appendChild(b);
    }
    var mine = [];
    ["1", "2"].forEach(function (r) {
      if (q.mine[r] !== null && q.mine[r] !== undefined) mine.push("vote " + r + ": (" + q.letters[q.mine[r]] + ")");
    });
    $("mine").textContent = mine.length ? "Your answers — " + mine.join(", ") : "";
    $("reveal").hidden = !q.revealed;
    if (q.revealed) {
      $("explanation").innerHTML = q.explanation_html || "";
      $("chart").innerHTML = chart(q);
    }
  }

  function chart(q) {
    var colors = { "1": "var(--blue)", "2": "var(--red)" }, html = "";
    ["1", "2"].forEach(function (r) {
      var c = q.counts[r], n = q.voters[r];
      if (!n) return;
      html += '<div class="legend">' + (r === "1" ? "First vote" : "Second vote") + " (" + n + " answers)</div>";
      for (var i = 0; i < c.length; i++) {
        var pct = Math.round(100 * c[i] / n);
        html += '<div class="row"><span>(' + q.letters[i] + ')</span><span class="bar" style="width:' +
                Math.max(pct, 1) + "%;background:" + colors[r] + '"></span><span>' + pct + "%</span></div>";
      }
    });
    return html || '<div class="legend">No answers were recorded.</div>';
  }

  function vote(ev) {
    var q = state.question, option = Number(ev.currentTarget.dataset.option), rnd = openRound(q);
    if (rnd === null || sending) return;
    sending = true;
    say("Sending…");
    api("vote", { method: "POST", headers: { "Content-Type": "application/json" },
                  body: JSON.stringify({ question: q.id, round: rnd, option: option }) }, 3)
      .then(function (answer) {
        q.mine[String(answer.round)] = answer.option;
        sending = false;
        render();
        say("Counted: (" + q.letters[answer.option] + "). You can change it until the vote closes.");
      })
      .catch(function (e) {
        sending = false;
        render();
        say("Not counted: " + e.message, true);
      });
  }

  function follow() {
    var path = version === null ? "state" : "state?since=" + version + "&wait=20";
    api(path).then(function (s) {
      failures = 0;
      var changed = !state || s.version !== state.version || JSON.stringify(s.question) !== JSON.stringify(state.question);
      state = s;
      version = s.version;
      if (changed && !sending) render();
      document.body.dataset.version = String(version);
      setTimeout(follow, 0);
    }).catch(function (e) {
      failures += 1;
      if (e.status === 403) { say("Your login has expired: reload the page.", true); return; }
      say("Lost the lecture (" + e.message + "); trying again…", true);
      setTimeout(follow, Math.min(10000, 500 * failures));
    });
  }

  follow();
})();
