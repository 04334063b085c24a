// The step-through replayer of the worked examples. It shows the states the reference engine
// computed at build time (the JSON in each [data-replayer]); it never computes a rule. The Play
// page reuses it (window.mariageReplayer) for hands whose states the engine computed in the page.
(function () {
  "use strict";

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? String(values[key]) : all;
    });
  }

  // A player as the page names them (the engine's A and B, by the page's catalog).
  function name(data, player) {
    return (data.names && data.names[player]) || player;
  }

  function card(data, text) {
    var face = data.cards[text];
    var node = el("span", "mc-card mc-" + face.color, face.text);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", face.label);
    node.setAttribute("data-card", text);
    return node;
  }

  function cardRow(data, texts) {
    var row = el("span", "mc-cards");
    texts.forEach(function (text) { row.appendChild(card(data, text)); });
    return row;
  }

  // A position's table with its column headers: player, cards, points, tricks.
  function positionTable(labels) {
    var table = el("table");
    var head = el("tr");
    [labels.player, labels.cards, labels.points, labels.tricks].forEach(function (text) {
      var th = el("th", "", text);
      th.setAttribute("scope", "col");
      head.appendChild(th);
    });
    table.appendChild(el("thead")).appendChild(head);
    return table;
  }

  function renderState(data, state) {
    var labels = data.labels;
    var view = el("div", "mc-diagram mc-position");
    if (state.score) {
      var score = Object.keys(state.score).map(function (p) { return name(data, p) + " " + state.score[p]; });
      var game = el("p", "mc-game", fill(labels.game, {hand: state.hand, score: score.join(" · ")}));
      game.setAttribute("data-score", JSON.stringify(state.score));
      view.appendChild(game);
    }
    var table = positionTable(labels);
    var body = table.appendChild(el("tbody"));
    Object.keys(state.hands).forEach(function (player) {
      var row = el("tr");
      row.setAttribute("data-player", player);
      var th = el("th", "", name(data, player));
      th.setAttribute("scope", "row");
      if (player === state.to_act) th.appendChild(el("small", "", " (" + labels.on_lead + ")"));
      row.appendChild(th);
      row.appendChild(el("td")).appendChild(cardRow(data, state.hands[player]));
      row.appendChild(el("td", "", String(state.points[player]))).setAttribute("data-points", "");
      row.appendChild(el("td", "", String(state.tricks[player]))).setAttribute("data-tricks", "");
      body.appendChild(row);
    });
    view.appendChild(table);
    var onTable = el("p", "mc-table", labels.table + " ");
    onTable.setAttribute("data-table", "");
    if (state.table.length) onTable.appendChild(cardRow(data, state.table));
    else onTable.appendChild(document.createTextNode(labels.empty));
    view.appendChild(onTable);
    var stock = el("p", "mc-stock", labels.trump + " ");
    stock.appendChild(card(data, state.indicator));
    var status = state.closer ? fill(labels.closed, {player: name(data, state.closer)})
      : state.stock === 0 ? labels.exhausted : fill(labels.stock, {count: state.stock});
    var statusNode = el("span", "", " · " + status);
    statusNode.setAttribute("data-stock", String(state.stock));
    stock.appendChild(statusNode);
    view.appendChild(stock);
    return view;
  }

  // A page's replayer reads its steps from its JSON and keeps its step in the URL (#step-3);
  // given `data`, it shows those steps and leaves the URL alone.
  function setUp(root, given) {
    var data = given || JSON.parse(root.querySelector("[data-steps]").textContent);
    var useHash = !given;
    var last = data.steps.length - 1;
    var view = root.querySelector("[data-view]");
    var caption = root.querySelector("[data-caption]");
    var slider = root.querySelector("[data-slider]");
    var counter = root.querySelector("[data-counter]");
    var buttons = root.querySelectorAll("[data-go]");
    var current = -1;

    function show(step, fromHash) {
      step = Math.max(0, Math.min(last, step));
      if (step === current) return;
      current = step;
      view.replaceChildren(renderState(data, data.steps[step]));
      caption.textContent = data.captions[step];
      slider.value = String(step);
      counter.textContent = fill(data.labels.step, {step: step, total: last});
      root.setAttribute("data-step", String(step));
      buttons.forEach(function (button) {
        var go = button.getAttribute("data-go");
        var idle = (go === "first" || go === "previous") ? step === 0 : step === last;
        button.setAttribute("aria-disabled", idle ? "true" : "false");
      });
      if (!fromHash && useHash) history.replaceState(null, "", "#step-" + step);
    }

    function go(where) {
      show({first: 0, previous: current - 1, next: current + 1, last: last}[where]);
    }

    buttons.forEach(function (button) {
      button.addEventListener("click", function () { go(button.getAttribute("data-go")); });
    });
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    root.addEventListener("keydown", function (event) {
      if (event.target === slider) return;        // the slider moves itself with the arrows
      var keys = {ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last"};
      if (keys[event.key]) {
        event.preventDefault();
        go(keys[event.key]);
      }
    });
    function fromHash() {
      var match = /^#step-(\d+)$/.exec(location.hash);
      show(match ? Number(match[1]) : Math.max(current, 0), true);
    }
    root.hidden = false;
    if (!useHash) return show(0, true);
    window.addEventListener("hashchange", fromHash);
    fromHash();
  }

  window.mariageReplayer = {setUp: setUp, card: card, el: el, fill: fill, name: name,
                            positionTable: positionTable};

  function start() {
    document.querySelectorAll("[data-replayer]").forEach(setUp);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
