/* The match page: the live view (spectators and players) and the replay viewer of a finished match.
 *
 * The live view polls the match's JSON view (GET /api/v1/matches/<id>/view/) and redraws when the ply
 * moves; a seated person acts with POST /api/v1/matches/<id>/actions/ (session + CSRF). What may be
 * played comes from the server's `legal` list: this script decides no rule.
 */
(function () {
  "use strict";

  function data(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  var S = data("js-strings") || {};
  var seats = data("seats-data") || [];
  var game = data("game-data");
  var POLL_MS = 500;

  function fmt(text, vars) {
    return String(text).replace(/%\((\w+)\)s/g, function (_m, key) {
      return vars[key] === undefined ? "" : vars[key];
    });
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function cardName(code) {
    var rank = code.slice(0, -1);
    var suit = code.slice(-1);
    return (S.ranks[rank] || rank) + " " + S.of + " " + (S.suits[suit] || suit);
  }

  function suitIcon(suit, cls) {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", cls || "pip");
    svg.setAttribute("aria-hidden", "true");
    var use = document.createElementNS(ns, "use");
    use.setAttribute("href", "#suit-" + suit);
    svg.appendChild(use);
    return svg;
  }

  function cardEl(code, tag, extra) {
    var rank = code.slice(0, -1);
    var suit = code.slice(-1);
    var node = el(tag || "span", "card suit-" + suit + (extra ? " " + extra : ""));
    node.title = cardName(code);
    node.dataset.code = code;
    node.appendChild(el("span", "rank", rank));
    node.appendChild(suitIcon(suit));
    node.appendChild(el("span", "court", S.ranks[rank] || ""));
    return node;
  }

  function actionLabel(code) {
    var parts = code.split(":");
    var kind = parts[0];
    var arg = parts[1];
    if (kind === "play") return fmt(S.play, { card: cardName(arg) });
    if (kind === "exchange") return fmt(S.exchange, { card: cardName(arg) });
    if (kind === "sing") return arg === "tute" ? S.sing_tute : fmt(S.sing, { suit: S.suits[arg] || arg });
    if (kind === "bid") return fmt(S.bid, { n: arg });
    if (kind === "pass") return S.pass;
    return code;
  }

  function seatName(i) {
    return (seats[i] && seats[i].name) || "#" + i;
  }

  function sideOf(i) {
    return game === "tute4" ? i % 2 : i;
  }

  function infoBox(container, v) {
    container.textContent = "";
    var trump = el("div", "trump");
    trump.appendChild(el("span", "label", S.trump + ": "));
    trump.appendChild(suitIcon(v.trump, "pip big"));
    trump.appendChild(el("b", null, " " + (S.suits[v.trump] || v.trump)));
    container.appendChild(trump);
    if (v.faceup) {
      var face = el("div", "faceup");
      face.appendChild(el("span", "label", S.faceup + ": "));
      face.appendChild(cardEl(v.faceup, "span", "small"));
      container.appendChild(face);
    } else if (v.trump_card) {
      var tc = el("div", "faceup");
      tc.appendChild(el("span", "label", S.trump + ": "));
      tc.appendChild(cardEl(v.trump_card, "span", "small dim"));
      container.appendChild(tc);
    }
    if (v.stock_size) container.appendChild(el("div", "stock", S.stock + ": " + v.stock_size));
    if (v.hands_total > 1) {
      container.appendChild(el("div", "handno", fmt(S.hand, { n: v.hand_number + 1, total: v.hands_total })));
    }
  }

  function trickBox(container, title, trick, last) {
    container.textContent = "";
    var cards = trick && trick.length ? trick : last ? last.cards : [];
    title.textContent = trick && trick.length ? S.table : last ? S.last_trick : S.table;
    cards.forEach(function (pair) {
      var slot = el("div", "played");
      var winner = !(trick && trick.length) && last && last.winner === pair[0];
      slot.appendChild(cardEl(pair[1], "span", winner ? "winner" : !(trick && trick.length) ? "dim" : ""));
      slot.appendChild(el("div", "who", seatName(pair[0])));
      container.appendChild(slot);
    });
  }

  /* ---------------------------------------------------------------- live view */

  var live = document.getElementById("live");
  if (live) {
    var current = data("view-data");
    var busy = false;
    var errorBox = document.getElementById("error");

    var showError = function (text) {
      errorBox.textContent = text;
      errorBox.hidden = !text;
    };

    var render = function (d) {
      current = d;
      var status = document.getElementById("match-status");
      if (d.status === "finished" || d.status === "aborted") {
        document.getElementById("turn").textContent = S.finished;
        window.setTimeout(function () {
          window.location.reload();
        }, 800);
        return;
      }
      if (status) status.dataset.ply = d.ply;
      live.dataset.ply = d.ply;
      var v = d.view;
      if (!v) {
        document.getElementById("turn").textContent = S.waiting_players;
        return;
      }
      infoBox(document.getElementById("info"), v);
      var panel = document.getElementById("seats-panel");
      panel.textContent = "";
      for (var i = 0; i < v.players; i++) {
        var box = el("div", "seat-box" + (d.to_act === i ? " to-act" : "") + (d.seat === i ? " mine" : ""));
        box.appendChild(el("div", "name", seatName(i) + (d.seat === i ? " (" + S.you + ")" : "")));
        var facts = v.hand_sizes[i] + " " + S.cards + " · " + S.tricks + ": " + v.tricks_won[i];
        if (v.bids && v.bids[i] !== null && v.bids[i] !== undefined) facts += " · " + S.bids + ": " + v.bids[i];
        if (v.scores && v.scores[sideOf(i)] !== undefined) facts += " · " + S.score + ": " + v.scores[sideOf(i)];
        box.appendChild(el("div", "facts", facts));
        if (v.known && v.known[i] && v.known[i].length && d.seat !== i) {
          var known = el("div", "known");
          v.known[i].forEach(function (c) {
            known.appendChild(cardEl(c, "span", "small"));
          });
          box.appendChild(known);
        }
        panel.appendChild(box);
      }
      var last = v.tricks && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
      trickBox(document.getElementById("trick"), document.getElementById("table-title"), v.trick, last);
      var turn = document.getElementById("turn");
      if (d.to_act === null || d.to_act === undefined) turn.textContent = "";
      else if (d.to_act === d.seat) turn.textContent = S.your_turn;
      else turn.textContent = fmt(S.waiting_for, { name: seatName(d.to_act) });
      turn.className = "turn" + (d.to_act !== null && d.to_act === d.seat ? " mine" : "");

      var hand = document.getElementById("hand");
      if (hand) {
        var legal = d.legal || [];
        hand.textContent = "";
        v.hand.forEach(function (c) {
          var code = "play:" + c;
          var ok = legal.indexOf(code) >= 0;
          var btn = cardEl(c, "button", ok ? "legal" : "");
          btn.type = "button";
          btn.disabled = !ok;
          btn.dataset.action = code;
          btn.setAttribute("aria-label", actionLabel(code));
          hand.appendChild(btn);
        });
        var actions = document.getElementById("actions");
        actions.textContent = "";
        legal
          .filter(function (code) {
            return code.indexOf("play:") !== 0;
          })
          .forEach(function (code) {
            var b = el("button", "action legal", actionLabel(code));
            b.type = "button";
            b.dataset.action = code;
            actions.appendChild(b);
          });
      }
      var log = document.getElementById("log");
      log.textContent = "";
      (v.cantes || []).forEach(function (c) {
        log.appendChild(
          el("div", "event", fmt(S.sang, { name: seatName(c.seat), points: c.points, suit: c.suit === "tute" ? "tute" : S.suits[c.suit] }))
        );
      });
      (v.exchanges || []).forEach(function (x) {
        log.appendChild(el("div", "event", fmt(S.swapped, { name: seatName(x.seat), gave: cardName(x.gave), took: cardName(x.took) })));
      });
    };

    // While an action is on its way every button is disabled: one action per turn, no double clicks.
    var setBusy = function (on) {
      busy = on;
      live.classList.toggle("busy", on);
      Array.prototype.forEach.call(live.querySelectorAll("[data-action]"), function (b) {
        b.disabled = on || !b.classList.contains("legal");
      });
    };

    var act = function (code) {
      if (busy || !current) return;
      setBusy(true);
      showError("");
      fetch(live.dataset.actionUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": live.dataset.csrf },
        body: JSON.stringify({ action: code, ply: current.ply }),
      })
        .then(function (r) {
          return r.json().then(function (body) {
            if (!r.ok) {
              var reason = body.detail && body.detail.reason ? ": " + body.detail.reason : "";
              showError((body.message || S.error) + reason);
              return poll(true);
            }
            render(body);
          });
        })
        .catch(function () {
          showError(S.connection);
        })
        .then(function () {
          setBusy(false);
        });
    };

    live.addEventListener("click", function (ev) {
      var target = ev.target.closest("[data-action]");
      if (target && !target.disabled) act(target.dataset.action);
    });

    var resign = document.getElementById("resign");
    if (resign) {
      resign.addEventListener("click", function () {
        if (!window.confirm(resign.textContent + "?")) return;
        fetch(live.dataset.resignUrl, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": live.dataset.csrf },
          body: "{}",
        }).then(function () {
          window.location.reload();
        });
      });
    }

    var poll = function (force) {
      return fetch(live.dataset.viewUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) {
          return r.ok ? r.json() : null;
        })
        .then(function (d) {
          // A poll sent before this page's own action may answer after it: never draw an older ply
          // over a newer one (its buttons would offer a move for a turn that has passed).
          if (!d || (current && d.ply < current.ply)) return;
          if (force || !current || d.ply !== current.ply || d.status !== current.status || !!d.legal !== !!current.legal) {
            render(d);
          }
        })
        .catch(function () {
          /* the next poll tries again */
        });
    };

    render(current);
    window.setInterval(function () {
      if (!busy && !document.hidden) poll();
    }, POLL_MS);
  }

  /* ---------------------------------------------------------------- replay viewer */

  var replayRoot = document.getElementById("replay");
  var replay = data("replay-data");
  if (replayRoot && replay && replay.length) {
    var gameIndex = 0;
    var step = 0;
    var range = document.getElementById("step-range");

    var steps = function () {
      return replay[gameIndex].steps;
    };

    var draw = function () {
      var list = steps();
      var s = list[step];
      range.max = list.length - 1;
      range.value = step;
      document.getElementById("step-label").textContent =
        step === 0 ? S.deal : fmt(S.step, { n: step, total: list.length - 1 });
      infoBox(document.getElementById("r-info"), s);
      var info = document.getElementById("r-info");
      if (s.scores && s.scores.length) info.appendChild(el("div", "scores", S.score + ": " + s.scores.join(" · ")));
      trickBox(document.getElementById("r-trick"), document.getElementById("r-table-title"), s.trick, s.trick_end || !s.trick.length ? s.last_trick : null);
      var actionText = s.action ? fmt(S.played, { name: seatName(s.action.seat), action: actionLabel(s.action.code) }) : S.deal;
      document.getElementById("r-action").textContent = actionText;
      var hands = document.getElementById("r-hands");
      hands.textContent = "";
      s.hands.forEach(function (cards, i) {
        var row = el("div", "seat-hand" + (s.action && s.action.seat === i ? " acted" : ""));
        var head = el("div", "name", seatName(i));
        var facts = " · " + S.tricks + ": " + s.tricks_won[i];
        if (s.bids && s.bids[i] !== null && s.bids[i] !== undefined) facts += " · " + S.bids + ": " + s.bids[i];
        head.appendChild(el("small", null, facts));
        row.appendChild(head);
        var hand = el("div", "hand");
        cards.forEach(function (c) {
          hand.appendChild(cardEl(c, "span", "small"));
        });
        row.appendChild(hand);
        hands.appendChild(row);
      });
    };

    var go = function (where) {
      var list = steps();
      if (where === "start") step = 0;
      else if (where === "end") step = list.length - 1;
      else if (where === "prev") step = Math.max(0, step - 1);
      else if (where === "next") step = Math.min(list.length - 1, step + 1);
      else if (where === "next-trick") {
        var n = step + 1;
        while (n < list.length - 1 && !list[n].trick_end) n++;
        step = Math.min(n, list.length - 1);
      } else if (where === "prev-trick") {
        var p = step - 1;
        while (p > 0 && !list[p].trick_end) p--;
        step = Math.max(p, 0);
      }
      draw();
    };

    replayRoot.addEventListener("click", function (ev) {
      var b = ev.target.closest("[data-go]");
      if (b) go(b.dataset.go);
    });
    range.addEventListener("input", function () {
      step = parseInt(range.value, 10) || 0;
      draw();
    });
    var select = document.getElementById("replay-game");
    if (select) {
      select.addEventListener("change", function () {
        gameIndex = parseInt(select.value, 10) || 0;
        step = 0;
        draw();
      });
    }
    document.addEventListener("keydown", function (ev) {
      if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
      if (ev.key === "ArrowRight") go(ev.shiftKey ? "next-trick" : "next");
      if (ev.key === "ArrowLeft") go(ev.shiftKey ? "prev-trick" : "prev");
    });
    draw();
  }
})();
