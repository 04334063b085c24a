// The Play page: the reader plays the computer, with the project's engine running in the page
// (Pyodide, self-hosted under assets/pyodide/; the engine and the opponent are
// assets/play/mariage.zip, built from the source tree at build time); once loaded it asks the
// server for nothing more, so a game goes on offline. Every rule is the
// engine's: this script sends the reader's action to mariage.play.table and shows what comes
// back (the legal actions, each refusal and its ruling, the record, the outcome). It computes
// no rule. Test interface: the game element carries data-record (the hand so far, as
// `mariage replay` reads it) and, once the hand ends, data-outcome; each legal action is a
// button with data-action in the record notation.
(function () {
  "use strict";

  var root = document.querySelector("[data-play]");
  var script = document.currentScript;
  if (!root || !script) return;
  var assets = new URL("../", script.src);          // this script is assets/javascripts/play.js
  var data = JSON.parse(root.querySelector("[data-play-data]").getAttribute("data-play-data"));
  var labels = data.labels;
  var setup = root.querySelector("[data-setup]");
  var loading = root.querySelector("[data-loading]");
  var progress = root.querySelector("[data-progress]");
  var game = root.querySelector("[data-game]");
  var live = root.querySelector("[data-live]");
  var rulingsLink = document.getElementById("mc-play-rulings");
  var api = null;
  var state = null;
  var profiles = {};              // each profile's JSON, fetched with the engine: no request after
  var slug = null;                // the profile of the game in play
  var TEACHING = "mariage";       // its rulings are the rulings page's, in the reader's language

  // The replayer's own helpers (replayer.js loads first, on every page).
  var el = window.mariageReplayer.el, fill = window.mariageReplayer.fill;

  // A player as the page names them (the engine's A and B, by the page's catalog).
  function named(player) { return player ? window.mariageReplayer.name(data, player) : ""; }

  function face(text) { return data.cards[text].text; }
  function spoken(text) { return data.cards[text].label; }

  function card(text) {
    var node = el("span", "mc-card mc-" + data.cards[text].color, face(text));
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", spoken(text));
    return node;
  }

  // ----- loading the engine: Pyodide's two large files with a progress bar, then the engine
  async function fetchWithProgress(url, share, done) {
    var response = await fetch(url);
    if (!response.ok) throw new Error(url + ": " + response.status);
    var total = Number(response.headers.get("Content-Length")) || 0;
    var reader = response.body.getReader();
    var chunks = [], received = 0;
    for (;;) {
      var part = await reader.read();
      if (part.done) break;
      chunks.push(part.value);
      received += part.value.length;
      if (total) progress.value = done + share * received / total;
    }
    progress.value = done + share;
    return new Blob(chunks);
  }

  var loaded = null;               // the one load, however many ask for it
  function loadEngine() {
    if (!loaded) loaded = load().catch(function (error) { loaded = null; throw error; });
    return loaded;
  }

  async function load() {
    loading.hidden = false;
    var base = new URL("pyodide/", assets);
    await fetchWithProgress(new URL("pyodide.asm.wasm", base), 65, 0);   // into the HTTP cache
    var stdlib = await fetchWithProgress(new URL("python_stdlib.zip", base), 20, 65);
    var module = await import(new URL("pyodide.mjs", base).href);
    var pyodide = await module.loadPyodide({
      indexURL: base.href, stdLibURL: URL.createObjectURL(stdlib), packages: []});
    progress.value = 90;
    await Promise.all(data.profiles.map(async function (p) {
      var response = await fetch(new URL("play/profiles/" + p.slug + ".json", assets));
      if (!response.ok) throw new Error(p.slug + ".json: " + response.status);
      profiles[p.slug] = await response.text();
    }));
    var engine = await fetchWithProgress(new URL("play/mariage.zip", assets), 10, 90);
    pyodide.unpackArchive(await engine.arrayBuffer(), "zip", {extractDir: "/home/pyodide/engine"});
    pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/engine')");
    api = pyodide.pyimport("mariage.play.table");
    loading.hidden = true;
    return api;
  }

  // ----- talking to the engine
  function call(name, argument) {
    var result = JSON.parse(api.call(name, argument || ""));
    if (result.error) throw new Error(result.error);
    return result;
  }

  async function newGame() {
    setup.querySelector("[data-start]").disabled = true;
    try {
      await loadEngine();
      slug = setup.querySelector("[data-profile]").value;
      var profile = profiles[slug];
      var seed = new URLSearchParams(location.search).get("seed");
      seed = seed === null ? Math.floor(Math.random() * 2147483647) : Number(seed);
      show(JSON.parse(api.start(profile, seed)));
    } catch (error) {
      loading.hidden = true;
      live.textContent = fill(labels.failed, {reason: error.message});
    } finally {
      setup.querySelector("[data-start]").disabled = false;
    }
  }

  function act(action) {
    game.setAttribute("aria-busy", "true");
    live.textContent = labels.thinking;
    // Let the page paint "thinking" before the engine (and the computer's search) runs.
    setTimeout(function () {
      show(call("act", action));
      game.removeAttribute("aria-busy");
    }, 30);
  }

  // ----- captions, as the worked examples' replayer writes them
  function caption(e) {
    var c = data.captions;
    var values = {player: named(e.player), dealer: named(e.dealer), winner: named(e.winner),
                  points: e.points,
                  before: e.before, bonus: e.bonus, total: e.total,
                  suit: e.suit ? data.suits[e.suit] : ""};
    if (e.card) values.card = spoken(e.card);
    if (e.trump) values.trump = spoken(e.trump);
    if (e.kind === "exchange") values.low = spoken(e.rank + e.card.slice(-1));
    if (e.kind === "trick") { values.points = e.won; return fill(c.trick[e.won], values); }
    if (e.kind === "claim") return fill(c.claim[e.points], values);
    return fill(c[e.kind], values);
  }

  function result(outcome) {
    if (!outcome.winner) return data.captions.tie;
    return fill(data.captions.result[outcome.game_points],
                {winner: named(outcome.winner), count: outcome.game_points});
  }

  // ----- the view
  function show(next) {
    state = next;
    var said = state.events.map(caption);
    if (state.outcome) said.push(result(state.outcome));
    game.setAttribute("data-record", JSON.stringify(state.record));
    if (state.outcome) game.setAttribute("data-outcome", JSON.stringify({
      winner: state.outcome.winner, game_points: state.outcome.game_points,
      points: state.outcome.points}));
    else game.removeAttribute("data-outcome");
    game.replaceChildren(scoreLine(), position(), choices(), why(), after());
    game.hidden = false;
    live.textContent = said.join(" ");
  }

  function who(player) {
    return fill(player === state.reader ? labels.you : labels.computer, {player: named(player)});
  }

  function scoreLine() {
    var box = el("div", "mc-play-score");
    var score = Object.keys(state.score).map(function (p) { return named(p) + " " + state.score[p]; });
    var line = el("p", "", fill(labels.score, {target: state.target, score: score.join(" · ")}));
    line.setAttribute("data-score", JSON.stringify(state.score));
    box.appendChild(line);
    box.appendChild(el("p", "", fill(labels.hand_number,
                                     {hand: state.hand_number, dealer: named(state.dealer)})));
    return box;
  }

  function position() {
    var view = el("div", "mc-diagram mc-position");
    var table = window.mariageReplayer.positionTable(labels);
    var body = table.appendChild(el("tbody"));
    [state.computer, state.reader].forEach(function (player) {
      var row = el("tr");
      row.setAttribute("data-player", player);
      var th = el("th", "", who(player));
      th.setAttribute("scope", "row");
      if (player === state.to_act) th.appendChild(el("small", "", " (" + labels.on_lead + ")"));
      row.appendChild(th);
      var count = player === state.reader ? state.holding.length : state.computer_cards;
      row.appendChild(el("td", "", String(count)));
      row.appendChild(el("td", "", String(state.points[player])));
      row.appendChild(el("td", "", String(state.tricks[player])));
      body.appendChild(row);
    });
    view.appendChild(table);
    var onTable = el("p", "mc-table", labels.table + " ");
    if (state.table.length) state.table.forEach(function (t) { onTable.appendChild(card(t)); });
    else onTable.appendChild(document.createTextNode(labels.empty));
    view.appendChild(onTable);
    var stock = el("p", "mc-stock", labels.trump + " ");
    stock.appendChild(card(state.indicator));
    var status = state.closer ? fill(labels.closed, {player: named(state.closer)})
      : state.stock === 0 ? labels.exhausted : fill(labels.stock, {count: state.stock});
    stock.appendChild(document.createTextNode(" · " + status));
    view.appendChild(stock);
    return view;
  }

  function actionButton(action, text) {
    var button = el("button", "md-button", text);
    button.type = "button";
    button.setAttribute("data-action", action);
    button.addEventListener("click", function () { act(action); });
    return button;
  }

  function choices() {
    var box = el("div", "mc-play-choices");
    if (state.outcome) return box;
    var mine = state.to_act === state.reader;
    var leading = mine && !state.table.length;
    box.appendChild(el("p", "mc-play-prompt", !mine ? labels.thinking
                                                   : leading ? labels.your_lead : labels.your_turn));
    var hand = el("div", "mc-play-hand");
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-label", labels.your_cards);
    state.holding.forEach(function (text) {
      var action = state.reader + " play " + text;
      var button = el("button", "mc-card-button");
      var allowed = mine && state.legal.indexOf(action) >= 0;
      button.type = "button";
      // The face is seen, the words are heard (no aria-label: the name is the button's text).
      button.appendChild(card(text)).setAttribute("aria-hidden", "true");
      button.appendChild(el("span", "mc-sr-only",
                            fill(allowed ? labels.play : labels.not_allowed, {card: spoken(text)})));
      if (allowed) {
        button.setAttribute("data-action", action);
        button.addEventListener("click", function () { act(action); });
      } else {
        button.setAttribute("aria-disabled", "true");
        if (mine) {
          button.setAttribute("data-refused", action);
          button.addEventListener("click", function () { explain(action, text); });
        }
      }
      hand.appendChild(button);
    });
    box.appendChild(hand);
    var options = state.legal.filter(function (a) { return a.indexOf(" play ") < 0; });
    if (options.length) {
      var group = el("div", "mc-play-options");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", labels.options);
      options.forEach(function (action) {
        var verb = action.split(" ")[1], arg = action.split(" ")[2];
        var text = verb === "marriage" ? fill(labels.marriage, {suit: data.suits[arg]})
          : verb === "claim" ? fill(labels.claim, {points: state.points[state.reader]})
          : verb === "exchange" ? ownProfile().exchange
          : labels[verb];
        group.appendChild(actionButton(action, text));
      });
      box.appendChild(group);
    }
    return box;
  }

  // The profile in play, as the page lists it: its name and the words that depend on its pack.
  function ownProfile() {
    return data.profiles.filter(function (p) { return p.slug === slug; })[0];
  }

  function why() {
    var box = el("div", "mc-play-why");
    box.setAttribute("data-why", "");
    box.setAttribute("role", "status");
    return box;
  }

  function explain(action, text) {
    var refusal = state.refused[action] || {};
    var box = game.querySelector("[data-why]");
    var ruling = data.rulings[refusal.ruling];
    box.replaceChildren(el("p", "mc-play-why-title", fill(labels.why, {card: spoken(text)})));
    if (!ruling) { box.appendChild(el("p", "", refusal.message || "")); return; }
    var said = el("p", "", fill(labels.ruling, {id: refusal.ruling, title: ruling.title}) + " — ");
    if (slug === TEACHING) {
      said.appendChild(document.createTextNode(ruling.text));
    } else {
      // A variant's rulings are its own profile's words, in English (the rulings page and the
      // catalogs state the teaching profile's); its page says how it differs.
      var own = el("span", "", refusal.text);
      own.setAttribute("lang", "en");
      said.appendChild(own);
    }
    box.appendChild(said);
    if (rulingsLink) {
      var rulings = rulingsLink.href.split("#")[0];
      var link = el("a", "", fill(labels.read_ruling, {id: refusal.ruling}));
      link.href = slug === TEACHING ? rulings + "#" + refusal.ruling.toLowerCase()
        : new URL("../variants/" + slug + "/", rulings).href;
      box.appendChild(el("p")).appendChild(link);
    }
  }

  function after() {
    var box = el("div", "mc-play-after");
    if (!state.outcome) return box;
    box.appendChild(el("p", "mc-play-result", labels.hand_over + " " + result(state.outcome)));
    if (state.game_winner) box.appendChild(el("p", "mc-play-result", state.game_winner === state.reader
                                              ? labels.you_win : labels.computer_wins));
    box.appendChild(perfect());
    var record = JSON.stringify(state.record);
    var label = el("p", "", labels.record);
    box.appendChild(label);
    var pre = el("pre", "mc-play-record");
    pre.setAttribute("tabindex", "0");
    pre.setAttribute("aria-label", labels.record);
    pre.appendChild(el("code", "", record));
    box.appendChild(pre);
    var buttons = el("p", "mc-play-buttons");
    var copy = el("button", "md-button", labels.copy);
    copy.type = "button";
    copy.addEventListener("click", function () {
      var copied = function () { live.textContent = labels.copied; };
      var selected = function () { window.getSelection().selectAllChildren(pre); };
      if (navigator.clipboard) navigator.clipboard.writeText(record).then(copied, selected);
      else selected();
    });
    buttons.appendChild(copy);
    var step = el("button", "md-button", labels.step_through);
    step.type = "button";
    step.setAttribute("data-step-through", "");
    step.addEventListener("click", function () { replay(box, step); });
    buttons.appendChild(step);
    var link = el("a", "md-button", labels.link);
    link.href = linkTo(state.record);
    link.setAttribute("data-replay-link", "");
    buttons.appendChild(link);
    var next = el("button", "md-button md-button--primary",
                  state.game_winner ? labels.new_game : labels.next_hand);
    next.type = "button";
    next.setAttribute("data-next", "");
    next.addEventListener("click", function () {
      if (state.game_winner) newGame();
      else show(call("next_hand"));
    });
    buttons.appendChild(next);
    box.appendChild(buttons);
    return box;
  }

  function perfect() {
    var p = state.perfect;
    if (!p) return el("p", "", labels.no_perfect);
    var box = el("div");
    box.appendChild(el("p", "", fill(labels.perfect, {step: p.step}) + " "
                                + result({winner: p.winner, game_points: p.game_points})));
    if (p.line.length) box.appendChild(el("p", "", fill(labels.perfect_line,
                                                         {line: p.line.join(", ")})));
    return box;
  }

  // ----- the step-through replayer (the states computed by the engine in the page)
  function replay(box, button) {
    box.appendChild(replayer(call("steps")));
    button.remove();
  }

  // A link to a hand: #replay=<profile>~<the record as JSON>, opened in the replayer at the top.
  function linkTo(record) {
    return "#replay=" + slug + "~" + encodeURIComponent(JSON.stringify(record));
  }

  async function fromLink() {
    var match = /^#replay=([a-z0-9-]+)~(.+)$/.exec(location.hash);
    var view = root.querySelector("[data-replay]");
    if (!match) return;
    await loadEngine();
    var text = profiles[match[1]];
    var steps = text ? JSON.parse(api.steps_of(text, decodeURIComponent(match[2])))
      : {error: match[1]};
    view.replaceChildren(el("h2", "", labels.from_link));
    if (steps.error) view.appendChild(el("p", "", fill(labels.bad_link, {reason: steps.error})));
    else view.appendChild(replayer(steps));
    view.hidden = false;
    view.scrollIntoView();
  }

  function replayer(steps) {
    var widget = el("div", "mc-replayer");
    widget.appendChild(el("div", "mc-replayer-view")).setAttribute("data-view", "");
    var cap = el("p", "mc-replayer-caption");
    cap.setAttribute("data-caption", "");
    cap.setAttribute("aria-live", "polite");
    widget.appendChild(cap);
    var controls = el("div", "mc-replayer-controls");
    controls.setAttribute("role", "group");
    controls.setAttribute("aria-label", labels.controls);
    [["first", "|◀"], ["previous", "◀"], ["next", "▶"], ["last", "▶|"]].forEach(function (b) {
      var go = el("button", "md-button", b[1]);
      go.type = "button";
      go.setAttribute("data-go", b[0]);
      go.setAttribute("aria-label", labels[b[0]]);
      controls.appendChild(go);
    });
    var slider = el("input");
    slider.type = "range";
    slider.min = "0";
    slider.max = String(steps.length - 1);
    slider.value = "0";
    slider.setAttribute("data-slider", "");
    slider.setAttribute("aria-label", labels.slider);
    controls.appendChild(slider);
    controls.appendChild(el("output")).setAttribute("data-counter", "");
    widget.appendChild(controls);
    var captions = steps.map(function (s) {
      return caption(s.event) + (s.outcome ? " " + result(s.outcome) : "");
    });
    window.mariageReplayer.setUp(widget, {steps: steps, captions: captions, cards: data.cards,
                                          labels: labels, names: data.names});
    return widget;
  }

  setup.hidden = false;
  setup.addEventListener("submit", function (event) {
    event.preventDefault();
    newGame();
  });
  function openLink() {
    fromLink().catch(function (error) {
      loading.hidden = true;
      live.textContent = fill(labels.failed, {reason: error.message});
    });
  }
  window.addEventListener("hashchange", openLink);
  openLink();
})();
