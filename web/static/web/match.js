/* The match page: the live table (spectators and players) and the replay viewer of a finished match.
 *
 * The live table listens to the match's Server-Sent Events (/matches/<id>/events/): one event per ply,
 * each the view after that ply, shown in turn with a short pause (and the trick's winner) so that no
 * card flashes past however fast the bots play. Without EventSource, or when the stream keeps failing,
 * it asks /matches/<id>/moments/ with If-None-Match (304 while nothing changed). A seated person acts
 * with POST /api/v1/matches/<id>/actions/ (session + CSRF). What may be played comes from the server's
 * `legal` list, the clock from the server's `clock`: this script decides no rule.
 */
(function () {
  "use strict";

  function data(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  var S = data("js-strings") || {};
  var seats = data("seats-data") || [];
  var game = data("game-data");
  // What the match's rules score (the server reads them from the engine): the page announces nothing else.
  var scoring = data("scoring-data") || {};
  var PLY_MS = 550; // each card stays alone on the table this long before the next one
  var TRICK_MS = 1500; // a finished trick stays, its winner marked, this long
  var POLL_MS = 1500; // the fallback's conditional poll

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
    if (!tag || tag === "span") {
      node.setAttribute("role", "img");
      node.setAttribute("aria-label", cardName(code));
    }
    var r = el("span", "rank", rank);
    r.setAttribute("aria-hidden", "true");
    node.appendChild(r);
    node.appendChild(suitIcon(suit));
    var court = el("span", "court", S.ranks[rank] || "");
    court.setAttribute("aria-hidden", "true");
    node.appendChild(court);
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
    return (seats[i] && seats[i].name) || fmt(S.seat_n, { n: i + 1 });
  }

  // A game's view speaks in game seats; the page's names and boxes are the match's seats. A duplicate
  // match's later plays of a board rotate them: seat_map[g] is the match seat holding game seat g.
  function matchSeat(map, g) {
    return map && map[g] !== undefined ? map[g] : g;
  }

  function gameSeat(map, m) {
    var g = map ? map.indexOf(m) : -1;
    return g < 0 ? m : g;
  }

  function holderName(map, g) {
    return seatName(matchSeat(map, g));
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
    }
    if (v.stock_size) container.appendChild(el("div", "stock", S.stock + ": " + v.stock_size));
    else if (game === "tute2" && v.phase === "play") {
      var arr = el("div", "arrastre", S.arrastre);
      arr.title = S.arrastre_help;
      container.appendChild(arr);
    }
    if (v.hands_total > 1) {
      container.appendChild(el("div", "handno", fmt(S.hand, { n: v.hand_number + 1, total: v.hands_total })));
    }
    if (game === "pocha" && v.bids) {
      var total = 0;
      var any = false;
      v.bids.forEach(function (b) {
        if (b !== null && b !== undefined) {
          total += b;
          any = true;
        }
      });
      if (any) {
        var sumText = v.cards_dealt === 1 && S.bid_total_one ? S.bid_total_one : S.bid_total;
        container.appendChild(el("div", "bidsum", fmt(sumText, { bids: total, tricks: v.cards_dealt })));
      }
    }
  }

  function trickBox(container, title, trick, last, nameOf) {
    container.textContent = "";
    var cards = trick && trick.length ? trick : last ? last.cards : [];
    title.textContent = trick && trick.length ? S.table : last ? S.last_trick : S.table;
    cards.forEach(function (pair) {
      var slot = el("div", "played");
      var winner = !(trick && trick.length) && last && last.winner === pair[0];
      slot.appendChild(cardEl(pair[1], "span", winner ? "winner" : !(trick && trick.length) ? "dim" : ""));
      slot.appendChild(el("div", "who", nameOf(pair[0])));
      container.appendChild(slot);
    });
  }

  function clockText(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    var r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }

  /* ---------------------------------------------------------------- live view */

  var live = document.getElementById("live");
  if (live) {
    var shown = data("view-data"); // the view on screen
    var clock = data("clock-data");
    var clockAt = Date.now();
    var queue = [];
    var lastPly = shown ? shown.ply : 0; // the newest ply received
    var lastStatus = shown ? shown.status : live.dataset.status;
    var pumping = false;
    var busy = false;
    var wantFocus = false;
    var showLast = false;
    // The Pocha scoresheet the page has (every finished hand): a moment brings it only when it changed
    // (a hand ended), so one without it keeps this one. Its key says to the server which one it is.
    var sheet = { key: null, hands: null };
    var sheetKeyOf = function (m) {
      return m && m.view && m.view.hands_played ? (m.game_number || 0) + ":" + m.view.hands_played.length : null;
    };
    var keepSheet = function (m) {
      if (!m || !m.view) return;
      if (m.view.hands_played) {
        sheet = { key: sheetKeyOf(m), hands: m.view.hands_played };
      } else if (sheet.hands) {
        m.view.hands_played = sheet.hands;
      }
    };
    var sheetParam = function () {
      return sheet.key ? "&sheet=" + encodeURIComponent(sheet.key) : "";
    };
    keepSheet(shown);
    var errorBox = document.getElementById("error");
    var announceBox = document.getElementById("announce");
    var noticeBox = document.getElementById("notice");

    // The plies this tab has drawn, in order (kept across the reload at the end): what the browser tests
    // compare with the match's record to see that no ply was skipped.
    var record = function (d) {
      try {
        var key = "tute:shown:" + d.match;
        var list = JSON.parse(window.sessionStorage.getItem(key) || "[]");
        if (list[list.length - 1] !== d.ply) list.push(d.ply);
        window.sessionStorage.setItem(key, JSON.stringify(list));
      } catch (_e) {
        /* private mode: nothing recorded */
      }
    };

    var showError = function (text) {
      errorBox.textContent = text;
      errorBox.hidden = !text;
    };

    var announce = function (text) {
      if (text) announceBox.textContent = text;
    };

    var notice = function (text, warn) {
      noticeBox.textContent = text || "";
      noticeBox.hidden = !text;
      noticeBox.className = "notice" + (warn ? " warn" : "");
    };

    var seatFacts = function (v, i) {
      var parts = [fmt(S.cards_n, { n: v.hand_sizes[i] }), fmt(S.tricks_n, { n: v.tricks_won[i] })];
      if (v.bids && v.bids[i] !== null && v.bids[i] !== undefined) parts.push(fmt(S.bid_n, { n: v.bids[i] }));
      if (v.scores && v.scores[sideOf(i)] !== undefined) parts.push(fmt(S.score_n, { n: v.scores[sideOf(i)] }));
      return parts.join(" · ");
    };

    var drawSeats = function (d) {
      var v = d.view;
      for (var i = 0; i < v.players; i++) {
        // the box of match seat i shows the game seat it holds in this game
        var box = document.getElementById("seat-" + i);
        if (!box) continue;
        var g = gameSeat(d.seat_map, i);
        box.classList.toggle("to-act", d.to_act === i);
        box.querySelector(".facts").textContent = seatFacts(v, g);
        var marks = box.querySelector(".marks");
        marks.textContent = "";
        if (v.dealer === g) {
          var dm = el("span", "mark", S.dealer_mark);
          dm.title = S.dealer;
          marks.appendChild(dm);
        }
        if (v.mano === g) {
          var mm = el("span", "mark", S.mano_mark);
          mm.title = S.mano;
          marks.appendChild(mm);
        }
        var known = box.querySelector(".known");
        known.textContent = "";
        if (v.known && v.known[g] && v.known[g].length && d.seat !== i) {
          v.known[g].forEach(function (c) {
            known.appendChild(cardEl(c, "span", "tiny"));
          });
        }
      }
    };

    // The trick in the middle, each card on its player's side; a finished trick keeps its winner marked.
    var drawTrick = function (d, justWon) {
      var v = d.view;
      var trick = document.getElementById("trick");
      var note = document.getElementById("trick-note");
      var lastBtn = document.getElementById("last-trick");
      var last = v.tricks && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
      if (!last && v.hands_played && v.hands_played.length && !(v.trick && v.trick.length)) {
        var played = v.hands_played[v.hands_played.length - 1].played || [];
        last = played.length ? played[played.length - 1] : null;
      }
      var cards = v.trick || [];
      var showing = null;
      trick.textContent = "";
      note.textContent = "";
      if (cards.length && !showLast) {
        showing = { cards: cards, winner: null };
      } else if (last && (justWon || showLast || !cards.length)) {
        showing = last;
      }
      if (showing) {
        var finished = showing.winner !== null && showing.winner !== undefined;
        showing.cards.forEach(function (pair) {
          var seat = seats[matchSeat(d.seat_map, pair[0])] || {};
          var slot = el("div", "played at-" + (seat.position || "top"));
          var won = finished && showing.winner === pair[0];
          slot.appendChild(cardEl(pair[1], "span", won ? "winner" : finished && !justWon ? "dim" : ""));
          slot.appendChild(el("div", "who", holderName(d.seat_map, pair[0])));
          trick.appendChild(slot);
        });
        if (finished) {
          var text = fmt(justWon ? S.won_trick : S.last_trick_won, { name: holderName(d.seat_map, showing.winner), points: showing.points });
          var lastOfHand = v.hand_sizes && v.hand_sizes.every(function (n) { return n === 0; });
          if (justWon && lastOfHand && scoring.last_trick_bonus) text += " · " + S.diez_ultimas;
          note.textContent = text;
        }
      }
      lastBtn.hidden = !last || !cards.length;
      lastBtn.setAttribute("aria-pressed", showLast ? "true" : "false");
    };

    var drawHand = function (d) {
      var hand = document.getElementById("hand");
      if (!hand) return;
      var v = d.view;
      var legal = d.legal || [];
      var hadFocus = hand.contains(document.activeElement) || document.getElementById("actions").contains(document.activeElement);
      var bidding = v.phase === "bid";
      hand.textContent = "";
      v.hand.forEach(function (c) {
        var code = "play:" + c;
        var ok = legal.indexOf(code) >= 0;
        var btn = cardEl(c, "button", ok ? "legal" : bidding ? "idle" : "");
        btn.type = "button";
        btn.disabled = !ok;
        btn.dataset.action = code;
        btn.setAttribute("aria-label", ok ? actionLabel(code) : cardName(c));
        hand.appendChild(btn);
      });
      var actions = document.getElementById("actions");
      actions.textContent = "";
      var bidNote = document.getElementById("bid-note");
      bidNote.hidden = true;
      var others = legal.filter(function (code) {
        return code.indexOf("play:") !== 0;
      });
      var bids = others.filter(function (code) {
        return code.indexOf("bid:") === 0;
      });
      if (bids.length) {
        // Every bid from 0 to the cards dealt, in number order; one the rules forbid stays, disabled, with why.
        var refused = [];
        for (var n = 0; n <= v.cards_dealt; n++) {
          var code = "bid:" + n;
          var ok = legal.indexOf(code) >= 0;
          var b = el("button", "action bid" + (ok ? " legal" : " refused"), String(n));
          b.type = "button";
          b.dataset.action = code;
          b.disabled = !ok;
          b.setAttribute("aria-label", actionLabel(code));
          if (!ok) refused.push(n);
          actions.appendChild(b);
        }
        if (refused.length) {
          bidNote.hidden = false;
          bidNote.textContent = fmt(S.hook, { n: refused.join(", "), k: v.cards_dealt });
        }
      }
      others
        .filter(function (code) {
          return code.indexOf("bid:") !== 0;
        })
        .forEach(function (code) {
          var b = el("button", "action legal", actionLabel(code));
          b.type = "button";
          b.dataset.action = code;
          actions.appendChild(b);
        });
      var hint = document.getElementById("hand-hint");
      if (bidding && d.to_act === d.seat) hint.textContent = S.bid_first;
      else if (legal.length && legal.length < v.hand.length + others.length && !bidding) hint.textContent = S.legal_hint;
      else hint.textContent = "";
      // Keep the keyboard on the hand: after a move, or when the turn comes back to a hand left focused.
      if (legal.length && (wantFocus || hadFocus || document.activeElement === document.body)) {
        var first = live.querySelector("#dock [data-action].legal:enabled");
        if (first && (wantFocus || hadFocus)) first.focus();
        wantFocus = false;
      }
    };

    var drawLog = function (d) {
      var v = d.view;
      var log = document.getElementById("log");
      log.textContent = "";
      (v.cantes || []).forEach(function (c) {
        log.appendChild(
          el("div", "event", fmt(S.sang, { name: holderName(d.seat_map, c.seat), points: c.points, suit: c.suit === "tute" ? "tute" : S.suits[c.suit] }))
        );
      });
      (v.exchanges || []).forEach(function (x) {
        log.appendChild(el("div", "event", fmt(S.swapped, { name: holderName(d.seat_map, x.seat), gave: cardName(x.gave), took: cardName(x.took) })));
      });
      drawScoresheet(v, d.seat_map);
    };

    var drawScoresheet = function (v, map) {
      var box = document.getElementById("scoresheet");
      if (!box || game !== "pocha" || !v.hands_played || !v.hands_played.length) return;
      box.textContent = "";
      var title = el("h3", null, S.scoresheet);
      title.id = "scoresheet-title";
      box.appendChild(title);
      // a wide sheet scrolls in a region the keyboard can reach
      var region = el("div", "table-scroll");
      region.setAttribute("role", "region");
      region.tabIndex = 0;
      region.setAttribute("aria-labelledby", "scoresheet-title");
      box.appendChild(region);
      var table = el("table", "list scoresheet");
      var head = el("tr");
      head.appendChild(el("th", null, S.hand_col));
      for (var i = 0; i < v.players; i++) head.appendChild(el("th", null, holderName(map, i)));
      var thead = el("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var body = el("tbody");
      v.hands_played.forEach(function (h, n) {
        var tr = el("tr");
        tr.appendChild(el("td", null, String(n + 1) + " (" + (h.cards || "") + ")"));
        for (var s = 0; s < v.players; s++) {
          var bid = h.bids ? h.bids[s] : null;
          var won = h.tricks ? h.tricks[s] : null;
          var pts = h.scores ? h.scores[s] : null;
          tr.appendChild(el("td", null, fmt(S.sheet_cell, { bid: bid, won: won, points: pts })));
        }
        body.appendChild(tr);
      });
      table.appendChild(body);
      region.appendChild(table);
    };

    var drawTurn = function (d) {
      var turn = document.getElementById("turn");
      if (d.to_act === null || d.to_act === undefined) turn.textContent = "";
      else if (d.to_act === d.seat) turn.textContent = S.your_turn;
      else turn.textContent = fmt(S.waiting_for, { name: seatName(d.to_act) });
      turn.className = "turn" + (d.to_act !== null && d.to_act === d.seat ? " mine" : "");
    };

    var tickClock = function () {
      var boxes = live.querySelectorAll(".seat-box .clock");
      Array.prototype.forEach.call(boxes, function (c) {
        c.textContent = "";
        c.className = "clock";
      });
      if (!clock || !shown || shown.status !== "in_progress" || clock.house_bot) return;
      var left = clock.left - (Date.now() - clockAt) / 1000;
      var box = document.getElementById("seat-" + clock.seat);
      var warnAt = Math.min(20, clock.total / 4);
      var warn = left <= warnAt;
      if (box) {
        var c = box.querySelector(".clock");
        c.textContent = clockText(left);
        c.setAttribute("title", S.clock);
        c.className = "clock" + (warn ? " warn" : "");
      }
      if (shown.seat === clock.seat && shown.to_act === shown.seat) {
        var turn = document.getElementById("turn");
        turn.textContent = S.your_turn + " · " + fmt(S.time_left, { t: clockText(left) });
        if (warn && !live.dataset.warned) {
          live.dataset.warned = "1";
          var used = clock.timeouts ? clock.timeouts[clock.seat] : 0;
          notice(fmt(S.hurry, { s: Math.max(0, Math.ceil(left)), used: used, max: clock.max_timeouts }), true);
          announce(fmt(S.hurry, { s: Math.max(0, Math.ceil(left)), used: used, max: clock.max_timeouts }));
        }
      }
    };

    var finished = function (d) {
      return d.status === "finished" || d.status === "aborted";
    };

    // Seats whose person has not been seen lately (the server says which): "away", their clock running.
    var markAway = function (away) {
      Array.prototype.forEach.call(live.querySelectorAll(".seat-box"), function (box) {
        var gone = (away || []).indexOf(parseInt(box.dataset.seat, 10)) >= 0;
        box.classList.toggle("away", gone);
        var tag = box.querySelector(".away-tag");
        if (gone && !tag) box.querySelector(".name").appendChild(el("span", "tag away-tag", S.away));
        if (!gone && tag) tag.remove();
      });
    };

    // Draw one moment; returns how long it should stay before the next one.
    var render = function (d) {
      var before = shown;
      shown = d;
      record(d);
      lastStatus = d.status;
      live.dataset.ply = d.ply;
      live.dataset.status = d.status;
      if (d.clock !== undefined) {
        clock = d.clock;
        clockAt = Date.now();
        if (clock) markAway(clock.away);
      }
      delete live.dataset.warned;
      if (finished(d)) {
        document.getElementById("turn").textContent = S.finished;
        window.setTimeout(function () {
          window.location.reload();
        }, 1200);
      }
      var v = d.view;
      if (!v) {
        document.getElementById("turn").textContent = S.waiting_players;
        return 0;
      }
      var info = document.getElementById("info");
      infoBox(info, v);
      if (d.board !== undefined && d.board !== null) info.appendChild(el("div", "boardno", fmt(S.board_n, { n: d.board + 1 })));
      drawSeats(d);
      var justWon =
        before && before.view && d.action &&
        ((v.tricks && before.view.tricks && v.tricks.length > before.view.tricks.length) ||
          v.hand_number !== before.view.hand_number);
      showLast = false;
      drawTrick(d, !!justWon);
      if (!finished(d)) drawTurn(d);
      drawHand(d);
      drawLog(d);
      tickClock();
      var a = d.action;
      if (a) {
        var who = a.seat === d.seat ? S.you_cap : seatName(a.seat);
        var said = fmt(S.played, { name: who, action: actionLabel(a.code) });
        if (a.kind === "timeout" && a.seat === d.seat && d.seat !== null) {
          var used = clock && clock.timeouts ? clock.timeouts[a.seat] : null;
          notice(fmt(S.auto_played, { action: actionLabel(a.code), used: used === null ? "?" : used, max: clock ? clock.max_timeouts : "?" }), true);
          said = noticeBox.textContent;
        } else if (a.kind === "timeout") {
          said += " (" + S.timed_out + ")";
        } else if (a.seat === d.seat) {
          notice("");
        }
        if (a.code.indexOf("sing:") === 0) notice(said, false);
        if (justWon) {
          var last = v.tricks && v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
          if (last) said += ". " + fmt(S.won_trick, { name: matchSeat(d.seat_map, last.winner) === d.seat ? S.you_cap : holderName(d.seat_map, last.winner), points: last.points });
        }
        if (d.to_act === d.seat && d.seat !== null && d.legal) said += ". " + S.your_turn;
        announce(said);
        return justWon ? TRICK_MS : a.seat === d.seat ? 0 : PLY_MS;
      }
      return 0;
    };

    var nextAt = 0; // no moment replaces the one on screen before this time
    var show = function (d) {
      nextAt = Date.now() + render(d);
    };

    // Show queued moments one after another; a hidden tab (or a long backlog) jumps to the newest.
    var pump = function () {
      if (pumping) return;
      pumping = true;
      var step = function () {
        if (!queue.length) {
          pumping = false;
          return;
        }
        if (document.hidden || queue.length > 12) {
          var newest = queue[queue.length - 1];
          var timedOut = queue.filter(function (m) {
            return m.action && m.action.kind === "timeout" && m.action.seat === m.seat && m.seat !== null;
          });
          queue = [];
          show(newest);
          if (timedOut.length) {
            var t = timedOut[timedOut.length - 1];
            notice(fmt(S.auto_played, { action: actionLabel(t.action.code), used: clock && clock.timeouts ? clock.timeouts[t.seat] : "?", max: clock ? clock.max_timeouts : "?" }), true);
          }
          pumping = false;
          return;
        }
        window.setTimeout(function () {
          if (queue.length) show(queue.shift());
          step();
        }, Math.max(0, nextAt - Date.now()));
      };
      step();
    };

    var receive = function (m) {
      if (!m) return;
      var newer = m.ply > lastPly || (m.ply === lastPly && m.status !== lastStatus);
      if (!newer) {
        // The moment of this page's own action, drawn from the action's answer: it brings the clock.
        if (shown && m.ply === shown.ply && m.clock !== undefined) {
          clock = m.clock;
          clockAt = Date.now();
          tickClock();
        }
        return;
      }
      keepSheet(m); // in ply order: only a moment newer than the sheet's
      lastPly = m.ply;
      lastStatus = m.status;
      queue.push(m);
      pump();
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
      if (busy || !shown) return;
      setBusy(true);
      showError("");
      wantFocus = true;
      fetch(live.dataset.actionUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": live.dataset.csrf },
        body: JSON.stringify({ action: code, ply: shown.ply }),
      })
        .then(function (r) {
          return r.json().then(function (body) {
            if (!r.ok) {
              var reason = body.detail && body.detail.reason && S.english ? ": " + body.detail.reason : "";
              showError(((S.errors && S.errors[body.code]) || body.message || S.error) + reason);
              return resync(true);
            }
            body.action = { seat: body.seat, code: code, kind: "move" };
            body.clock = null; // the stream's moment for this ply brings the next turn's clock
            if (body.ply > lastPly) {
              keepSheet(body);
              lastPly = body.ply;
              lastStatus = body.status;
              queue = queue.filter(function (m) {
                return m.ply > body.ply;
              });
              show(body);
            }
          });
        })
        .catch(function () {
          showError(S.connection);
        })
        .then(function () {
          setBusy(false);
          if (shown && shown.legal) drawHand(shown);
        });
    };

    live.addEventListener("click", function (ev) {
      var target = ev.target.closest("[data-action]");
      if (target && !target.disabled) act(target.dataset.action);
    });

    document.getElementById("last-trick").addEventListener("click", function () {
      showLast = !showLast;
      if (shown && shown.view) drawTrick(shown, false);
    });

    // A practice game's hint: the server says which move the strongest house level would make; the page
    // marks that card or button (it decides nothing itself).
    var askHint = document.getElementById("ask-hint");
    if (askHint) {
      askHint.addEventListener("click", function () {
        fetch(askHint.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (r) {
            return r.json().then(function (body) {
              if (!r.ok) {
                showError((S.errors && S.errors[body.code]) || body.message || S.error);
                return;
              }
              Array.prototype.forEach.call(live.querySelectorAll(".hinted"), function (n) {
                n.classList.remove("hinted");
              });
              var target = live.querySelector('[data-action="' + body.action + '"]');
              if (target) target.classList.add("hinted");
              announce(fmt(S.hint, { move: target ? target.getAttribute("aria-label") || target.textContent : body.action }));
            });
          })
          .catch(function () {
            showError(S.connection);
          });
      });
    }

    var resign = document.getElementById("resign");
    if (resign) {
      resign.addEventListener("click", function () {
        if (!window.confirm(S.resign_confirm)) return;
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

    /* -- the feed: Server-Sent Events, or conditional polls when they cannot be had */

    var etag = null;
    var resync = function (force) {
      var headers = { Accept: "application/json" };
      if (etag && !force) headers["If-None-Match"] = etag;
      return fetch(live.dataset.momentsUrl + "?after=" + lastPly + sheetParam(), { credentials: "same-origin", headers: headers })
        .then(function (r) {
          if (r.status === 304 || !r.ok) return null;
          etag = r.headers.get("ETag");
          return r.json();
        })
        .then(function (body) {
          if (!body) return;
          body.moments.forEach(receive);
          if (!body.moments.length && body.clock && shown) {
            clock = body.clock;
            clockAt = Date.now();
          }
        })
        .catch(function () {
          /* the next try */
        });
    };

    var source = null;
    var failures = 0;
    var polling = null;
    var startPolling = function () {
      if (polling) return;
      polling = window.setInterval(function () {
        if (!busy && !finished(shown || {})) resync(false);
      }, POLL_MS);
    };
    var connect = function () {
      if (!window.EventSource) {
        startPolling();
        return;
      }
      source = new EventSource(live.dataset.eventsUrl + "?after=" + lastPly + "&status=" + encodeURIComponent(lastStatus || "") + sheetParam());
      source.addEventListener("moment", function (ev) {
        failures = 0;
        receive(JSON.parse(ev.data));
      });
      source.addEventListener("presence", function (ev) {
        markAway(JSON.parse(ev.data).away);
      });
      source.addEventListener("bye", function () {
        source.close();
        if (!finished(shown || {})) window.setTimeout(connect, 200);
      });
      source.onerror = function () {
        failures += 1;
        if (failures >= 3) {
          source.close();
          startPolling();
        }
      };
    };

    document.addEventListener("visibilitychange", function () {
      // A phone back from a locked screen: catch up at once (the stream may have been cut while asleep).
      if (!document.hidden) {
        resync(true);
        pump();
      }
    });

    show(shown);
    if (clock) markAway(clock.away);
    if (!finished(shown || { status: live.dataset.status })) connect();
    window.setInterval(tickClock, 500);
  }

  /* ---------------------------------------------------------------- replay viewer */

  // One viewer per .replayer element (the match page has one; a board's page one per play), each over
  // the replay of its json_script (data-replay): {url, page, games: [index of each game], first: the
  // first game's first page of steps}. A long Pocha has thousands of steps: the viewer asks `url` for the
  // other pages as it moves (a board's play comes whole, url null). The arrow keys step the viewer last
  // used.
  var viewers = [];
  var activeViewer = null;

  function replayViewer(root, replay) {
    var gameIndex = 0;
    var step = 0;
    var part = function (cls) {
      return root.querySelector("." + cls);
    };
    var range = part("step-range");
    var handSelect = part("replay-hand");
    // pages[game][start]: the steps from `start`, as they arrive.
    var pages = replay.games.map(function () {
      return {};
    });
    pages[0][0] = replay.first;
    var fetching = {};

    var meta = function () {
      return replay.games[gameIndex];
    };
    var pageOf = function (i) {
      return i - (i % replay.page);
    };
    var stepAt = function (i) {
      var page = pages[gameIndex][pageOf(i)];
      return page ? page[i - pageOf(i)] : null;
    };
    var load = function (g, start) {
      var key = g + ":" + start;
      if (!replay.url || fetching[key] || pages[g][start]) return;
      fetching[key] = true;
      fetch(replay.url + "?game=" + g + "&start=" + start, { headers: { Accept: "application/json" } })
        .then(function (r) {
          if (!r.ok) throw new Error(String(r.status));
          return r.json();
        })
        .then(function (body) {
          pages[g][start] = body.steps;
          delete fetching[key];
          draw();
        })
        .catch(function () {
          part("step-label").textContent = S.connection;
          window.setTimeout(function () {
            delete fetching[key];
            draw();
          }, 2000);
        });
    };

    var fillHands = function () {
      // Pocha: a jump to the start of each hand.
      handSelect.textContent = "";
      meta().hands.forEach(function (h) {
        var o = el("option", null, fmt(S.hand, { n: h[0] + 1, total: meta().hands_total }));
        o.value = String(h[1]);
        handSelect.appendChild(o);
      });
      part("replay-hand-label").hidden = handSelect.options.length < 2;
    };

    var draw = function () {
      var shown = meta();
      var total = shown.steps;
      var map = shown.seat_map || null;
      // every seat in a step is a game seat: its name is the match seat's that held it in this game (or
      // the game's own names, for plays of a board from several matches)
      var nameOf = function (g) {
        return shown.names ? shown.names[g] : holderName(map, g);
      };
      var s = stepAt(step);
      for (var h = handSelect.options.length - 1; h >= 0; h--) {
        if (parseInt(handSelect.options[h].value, 10) <= step) {
          handSelect.selectedIndex = h;
          break;
        }
      }
      range.max = total - 1;
      range.value = step;
      if (!s) {
        part("step-label").textContent = S.loading;
        load(gameIndex, pageOf(step));
        return;
      }
      part("step-label").textContent = step === 0 ? S.deal : fmt(S.step, { n: step, total: total - 1 });
      // The next page before the viewer reaches it.
      var next = pageOf(step) + replay.page;
      if (next < total && step - pageOf(step) >= replay.page / 2) load(gameIndex, next);
      var info = part("r-info");
      infoBox(info, s);
      if (shown.board !== undefined && shown.board !== null) info.appendChild(el("div", "boardno", fmt(S.board_n, { n: shown.board + 1 })));
      if (s.scores && s.scores.length) info.appendChild(el("div", "scores", S.score + ": " + s.scores.join(" · ")));
      trickBox(part("r-trick"), part("r-table-title"), s.trick, s.trick_end || !s.trick.length ? s.last_trick : null, nameOf);
      part("r-action").textContent = s.action ? fmt(S.played, { name: nameOf(s.action.seat), action: actionLabel(s.action.code) }) : S.deal;
      drawReview();
      var hands = part("r-hands");
      hands.textContent = "";
      s.hands.forEach(function (cards, i) {
        var row = el("div", "seat-hand" + (s.action && s.action.seat === i ? " acted" : ""));
        row.dataset.seat = String(matchSeat(map, i));
        var head = el("div", "name", nameOf(i));
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

    // A review attached by the review panel: {game: index, byStep: {step: entry}, worst: {step: rank}}.
    // The step of a decision is its game ply + 1 (step 0 is the deal).
    var review = null;
    var drawReview = function () {
      var line = part("r-review");
      if (!line) return;
      var e = review && review.game === gameIndex ? review.byStep[step] : null;
      line.hidden = !e;
      line.className = "r-review";
      if (!e) return;
      var text;
      if (e.best === e.played || e.cost <= 0) {
        text = fmt(S.review_best, { points: e.values[e.played] });
        line.classList.add("best");
      } else {
        text = fmt(S.review_cost, { best: actionLabel(e.best), points: e.values[e.best], cost: e.cost });
        line.classList.add("lost");
      }
      if (review.worst[step] !== undefined) {
        text += " " + S.review_worst;
        line.classList.add("worst");
      }
      line.textContent = text;
    };

    var go = function (where) {
      var last = meta().steps - 1;
      var ends = meta().trick_ends;
      if (where === "start") step = 0;
      else if (where === "end") step = last;
      else if (where === "prev") step = Math.max(0, step - 1);
      else if (where === "next") step = Math.min(last, step + 1);
      else if (where === "next-trick") {
        var n = ends.find(function (e) {
          return e > step;
        });
        step = n === undefined ? last : n;
      } else if (where === "prev-trick") {
        var p = 0;
        ends.forEach(function (e) {
          if (e < step) p = e;
        });
        step = p;
      }
      draw();
    };

    var viewer = {
      go: go,
      root: root,
      game: function () {
        return gameIndex;
      },
      number: function () {
        return meta().number;
      },
      goStep: function (n) {
        step = Math.max(0, Math.min(meta().steps - 1, n));
        draw();
      },
      setReview: function (r) {
        review = r;
        draw();
      },
      onGame: null,
    };
    var use = function () {
      activeViewer = viewer;
    };
    root.addEventListener("click", function (ev) {
      use();
      var b = ev.target.closest("[data-go]");
      if (b) go(b.dataset.go);
    });
    root.addEventListener("focusin", use);
    handSelect.addEventListener("change", function () {
      step = parseInt(handSelect.value, 10) || 0;
      draw();
    });
    range.addEventListener("input", function () {
      step = parseInt(range.value, 10) || 0;
      draw();
    });
    var select = part("replay-game");
    if (select) {
      select.addEventListener("change", function () {
        gameIndex = parseInt(select.value, 10) || 0;
        step = 0;
        fillHands();
        draw();
        if (viewer.onGame) viewer.onGame(gameIndex);
      });
    }
    fillHands();
    draw();
    return viewer;
  }

  Array.prototype.forEach.call(document.querySelectorAll(".replayer[data-replay]"), function (root) {
    var replay = data(root.dataset.replay);
    if (replay && replay.games && replay.games.length) viewers.push(replayViewer(root, replay));
  });
  /* ---------------------------------------------------------------- review panel */

  // The finished match's review panel (#review): asks the API for the review of the chosen seat in the
  // game the replay shows, polls while a worker works it out, then hands it to the replay viewer (a line
  // beside each of that seat's moves) and lists the worst moments, each a jump to its step.
  function reviewPanel(panel, viewer) {
    var status = document.getElementById("review-status");
    var summary = document.getElementById("review-summary");
    var seatSelect = document.getElementById("review-seat");
    var button = document.getElementById("review-start");
    var asked = 0; // which request is current: a newer one (another seat or game) drops the older
    var show = function (body, game) {
      var byStep = {};
      var worst = {};
      body.entries.forEach(function (e) {
        byStep[e.game_ply + 1] = e;
      });
      body.worst.forEach(function (index, rank) {
        worst[body.entries[index].game_ply + 1] = rank;
      });
      viewer.setReview({ game: game, byStep: byStep, worst: worst });
      status.textContent = "";
      var perDecision = body.decisions ? Math.round((body.points_lost / body.decisions) * 100) / 100 : 0;
      document.getElementById("review-total").textContent = fmt(S.review_total, {
        points: body.points_lost,
        n: body.decisions,
        each: perDecision,
      });
      var list = document.getElementById("review-worst");
      list.textContent = "";
      body.worst.forEach(function (index) {
        var e = body.entries[index];
        var b = el(
          "button",
          "moment",
          fmt(S.review_moment, { n: e.game_ply + 1, played: actionLabel(e.played), best: actionLabel(e.best), cost: e.cost })
        );
        b.type = "button";
        b.addEventListener("click", function () {
          viewer.goStep(e.game_ply + 1);
          viewer.root.scrollIntoView({ block: "nearest" });
        });
        var li = el("li");
        li.appendChild(b);
        list.appendChild(li);
      });
      if (!body.worst.length) list.appendChild(el("li", null, S.review_no_worst));
      summary.hidden = false;
    };
    var ask = function (id, game, seat) {
      if (id !== asked) return;
      fetch(panel.dataset.url + "?game=" + viewer.number() + "&seat=" + seat, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      })
        .then(function (r) {
          return r.json().then(function (body) {
            return { code: r.status, body: body };
          });
        })
        .then(function (answer) {
          if (id !== asked) return;
          if (answer.code === 200) {
            button.disabled = false;
            show(answer.body, game);
          } else if (answer.code === 202) {
            status.textContent = fmt(S.review_running, { done: answer.body.entries.length, n: answer.body.decisions });
            window.setTimeout(function () {
              ask(id, game, seat);
            }, 1500);
          } else {
            button.disabled = false;
            status.textContent = (S.review_errors && S.review_errors[answer.body.code]) || S.error + ": " + answer.body.message;
          }
        })
        .catch(function () {
          if (id !== asked) return;
          status.textContent = S.connection;
          window.setTimeout(function () {
            ask(id, game, seat);
          }, 3000);
        });
    };
    var clear = function () {
      asked += 1;
      button.disabled = false;
      summary.hidden = true;
      status.textContent = "";
      viewer.setReview(null);
    };
    button.addEventListener("click", function () {
      asked += 1;
      button.disabled = true;
      summary.hidden = true;
      status.textContent = S.review_queued;
      ask(asked, viewer.game(), seatSelect.value);
    });
    seatSelect.addEventListener("change", clear);
    viewer.onGame = clear;
  }

  var reviewRoot = document.getElementById("review");
  if (reviewRoot && viewers.length) reviewPanel(reviewRoot, viewers[0]);

  if (viewers.length) {
    activeViewer = viewers[0];
    document.addEventListener("keydown", function (ev) {
      if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
      if (ev.key === "ArrowRight") activeViewer.go(ev.shiftKey ? "next-trick" : "next");
      if (ev.key === "ArrowLeft") activeViewer.go(ev.shiftKey ? "prev-trick" : "prev");
    });
  }
})();
