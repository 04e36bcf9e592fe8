/* People playing people, for signed-in visitors (the pages work without it, by reloading):
 * - the challenges waiting for your answer, on every page (GET /api/v1/me/challenges/ every few seconds
 *   while the tab is in sight: this also tells the site you are here), with Accept and Decline;
 * - the quick-pairing wait: polls the seek (which keeps it alive) and goes to the match once seated;
 * - an open table: looks at its seats every few seconds and reloads when someone sits, leaves or it starts;
 * - the lobby: its Server-Sent Events (or a poll of /api/v1/lobby/ without them), drawn as they come;
 * - the table form: only the seats of the chosen table size, and Pocha's player count for Pocha only;
 * - the house-bot form: each level's measured rating for the chosen game only;
 * - the invite link's Copy button.
 * What may be done is the server's to say: this script only shows it.
 */
(function () {
  "use strict";

  var CHALLENGE_MS = 5000;
  var SEEK_MS = 2000;
  var TABLE_MS = 3000;
  var LOBBY_POLL_MS = 5000;

  function fmt(text, vars) {
    return String(text || "").replace(/%\((\w+)\)s/g, function (_m, key) {
      return vars[key] === undefined ? "" : vars[key];
    });
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function getJSON(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (r) {
      return r.ok ? r.json() : null;
    });
  }

  function every(ms, fn) {
    fn();
    return window.setInterval(function () {
      if (!document.hidden) fn();
    }, ms);
  }

  function clockText(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var m = Math.floor(s / 60);
    return m + ":" + String(s % 60).padStart(2, "0");
  }

  /* -- challenges for you, on every page */
  var box = document.getElementById("challenges");
  if (box && window.fetch) {
    var strings = box.querySelector(".challenge-strings").dataset;
    var template = document.getElementById("challenge-template");
    var shownKey = "";
    var drawChallenges = function (page) {
      var items = (page && page.results) || [];
      var key = items
        .map(function (m) {
          return m.id;
        })
        .join(",");
      if (key === shownKey) return;
      shownKey = key;
      Array.prototype.forEach.call(box.querySelectorAll(".challenge"), function (n) {
        n.remove();
      });
      items.forEach(function (m) {
        var from = m.seats.filter(function (s) {
          return s.player && s.accepted && s.player.handle !== box.dataset.me;
        })[0];
        var who = from ? from.player.display_name : "";
        var node = template.content.firstElementChild.cloneNode(true);
        var text = m.rematch_of ? strings.rematch : strings.challenge;
        node.querySelector(".challenge-text").textContent = fmt(text, {
          who: who,
          game: strings[m.game] || m.game,
          clock: fmt(strings.seconds, { n: m.human_move_seconds }),
          rated: m.rated ? strings.rated : strings.unrated,
        });
        node.querySelector("form").action = "/matches/" + m.id + "/answer/";
        node.dataset.match = m.id;
        box.appendChild(node);
      });
      box.hidden = items.length === 0;
    };
    every(CHALLENGE_MS, function () {
      getJSON(box.dataset.url)
        .then(drawChallenges)
        .catch(function () {
          /* the next look */
        });
    });
  }

  /* -- the quick-pairing wait */
  var wait = document.getElementById("seek-wait");
  if (wait && wait.dataset.status === "waiting" && window.fetch) {
    var created = new Date(wait.dataset.created).getTime();
    var waited = document.getElementById("seek-waited");
    var windowNote = document.getElementById("seek-window");
    var lookSeek = function () {
      getJSON(wait.dataset.apiUrl)
        .then(function (seek) {
          if (!seek) return;
          if (seek.status === "matched" && seek.match) {
            window.location.assign(wait.dataset.matchUrl.replace("/0/", "/" + seek.match + "/"));
          } else if (seek.status !== "waiting") {
            window.location.reload();
          } else if (windowNote) {
            var rating = parseInt(windowNote.dataset.rating, 10);
            windowNote.textContent = fmt(windowNote.dataset.label, {
              low: Math.max(0, rating - seek.window),
              high: rating + seek.window,
            });
          }
        })
        .catch(function () {
          /* the next look */
        });
    };
    window.setInterval(lookSeek, SEEK_MS); // also while the tab is hidden: that keeps the seek alive
    lookSeek();
    var tick = function () {
      if (waited) waited.textContent = fmt(waited.dataset.label, { t: clockText((Date.now() - created) / 1000) });
    };
    tick();
    window.setInterval(tick, 1000);
  }

  /* -- an open table: reload when its seats or its status change */
  var table = document.getElementById("open-table");
  if (table && window.fetch) {
    var signature = null;
    var sign = function (m) {
      return (
        m.status +
        "|" +
        m.seats
          .map(function (s) {
            return (s.player ? s.player.handle : "") + ":" + s.house_bot + ":" + s.accepted + ":" + s.away;
          })
          .join(",")
      );
    };
    every(TABLE_MS, function () {
      getJSON(table.dataset.statusUrl)
        .then(function (m) {
          if (!m) return;
          var now = sign(m);
          if (signature !== null && now !== signature) window.location.reload();
          signature = now;
        })
        .catch(function () {
          /* the next look */
        });
    });
  }

  var copy = document.getElementById("invite-copy");
  var link = document.getElementById("invite-link");
  if (copy && link && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      navigator.clipboard.writeText(link.value).then(function () {
        copy.textContent = copy.dataset.done;
      });
    });
  }
  if (link) {
    link.addEventListener("focus", function () {
      link.select();
    });
  }

  /* -- the house-bot form: each level's rating for the chosen game (without the script: every game's) */
  var playForm = document.getElementById("play-form");
  var playGame = playForm && playForm.querySelector("select[name=game]");
  if (playGame) {
    var showLevelRatings = function () {
      playForm.querySelectorAll(".level-rating").forEach(function (node) {
        node.hidden = node.dataset.game !== playGame.value;
      });
    };
    playGame.addEventListener("change", showLevelRatings);
    showLevelRatings();
  }

  /* -- the table form: the seats of the table's size only */
  var tableForm = document.getElementById("table-form");
  if (tableForm) {
    var prefix = tableForm.dataset.seatPrefix ? tableForm.dataset.seatPrefix + "-" : "";
    var gameField = tableForm.querySelector("[name='" + prefix + "game']");
    var playersField = tableForm.querySelector("[name='" + prefix + "players']");
    var sizes = { tute2: 2, tute4: 4 };
    var showSeats = function () {
      var game = gameField.value;
      var size = sizes[game] || parseInt(playersField.value, 10) || 4;
      playersField.closest("p").hidden = game !== "pocha";
      for (var i = 0; i < 6; i++) {
        var field = tableForm.querySelector("[name='" + prefix + "seat_" + i + "']");
        if (field) field.closest("p").hidden = i >= size;
      }
    };
    gameField.addEventListener("change", showSeats);
    playersField.addEventListener("input", showSeats);
    showSeats();
  }

  /* -- the lobby, live */
  var lobby = document.getElementById("lobby");
  if (lobby) {
    var L = document.getElementById("lobby-strings").content.firstElementChild.dataset;
    var csrf = lobby.dataset.csrf;
    var signedIn = lobby.dataset.signedIn === "1";
    var postButton = function (url, label, extra) {
      var form = el("form", "inline");
      form.method = "post";
      form.action = url;
      var token = el("input");
      token.type = "hidden";
      token.name = "csrfmiddlewaretoken";
      token.value = csrf;
      form.appendChild(token);
      if (extra) {
        var next = el("input");
        next.type = "hidden";
        next.name = "next";
        next.value = extra;
        form.appendChild(next);
      }
      var button = el("button", "small", label);
      button.type = "submit";
      form.appendChild(button);
      return form;
    };
    var drawLobby = function (data) {
      var n = data.online.count;
      document.getElementById("lobby-online").textContent = fmt(n === 1 ? L.onlineOne : L.onlineMany, { n: n });
      var online = document.getElementById("lobby-online-list");
      online.textContent = "";
      data.online.players.forEach(function (handle, i) {
        if (i) online.appendChild(document.createTextNode(", "));
        else online.appendChild(document.createTextNode(": "));
        var a = el("a", null, handle);
        a.href = L.playerUrl.replace("/handle/", "/" + encodeURIComponent(handle) + "/");
        online.appendChild(a);
      });
      var body = document.querySelector("#lobby-tables tbody");
      body.textContent = "";
      if (!data.tables.length) {
        var emptyRow = el("tr", "empty-row");
        var cell = el("td", "empty", L.noTables);
        cell.colSpan = 5;
        emptyRow.appendChild(cell);
        body.appendChild(emptyRow);
      }
      data.tables.forEach(function (t) {
        var row = el("tr");
        row.dataset.match = t.match;
        row.appendChild(el("td", null, L[t.game] || t.game));
        var seatsCell = el("td");
        t.seats.forEach(function (s) {
          var chip = el("span", "seat-chip");
          var who = s.player ? s.player + " (" + s.rating + ")" : s.house_bot ? L["bot-" + s.house_bot] || s.house_bot : null;
          chip.appendChild(document.createTextNode(s.index + 1 + ". "));
          if (who) chip.appendChild(document.createTextNode(who));
          else chip.appendChild(el("em", null, L.free));
          seatsCell.appendChild(chip);
          seatsCell.appendChild(document.createTextNode(" "));
        });
        row.appendChild(seatsCell);
        row.appendChild(el("td", null, fmt(L.seconds, { n: t.human_move_seconds })));
        row.appendChild(el("td", null, t.rated ? L.yes : L.no));
        var actions = el("td");
        if (signedIn) actions.appendChild(postButton(L.sitUrl.replace("/0/", "/" + t.match + "/"), L.sit, window.location.pathname));
        actions.appendChild(document.createTextNode(" "));
        var see = el("a", null, L.see);
        see.href = L.seeUrl.replace("/0/", "/" + t.match + "/");
        actions.appendChild(see);
        row.appendChild(actions);
        body.appendChild(row);
      });
      var list = document.getElementById("lobby-seeks");
      list.textContent = "";
      if (!data.seeks.length) list.appendChild(el("li", "empty", L.noSeeks));
      data.seeks.forEach(function (s) {
        var item = el("li");
        item.dataset.seek = s.seek;
        var text = s.player + " (" + s.rating + ") · " + (L[s.game] || s.game);
        if (s.game === "pocha") text += " · " + fmt(L.players, { n: s.players });
        item.appendChild(document.createTextNode(text + " · " + fmt(L.seconds, { n: s.human_move_seconds })));
        if (signedIn && s.players === 2 && s.player !== lobby.dataset.me) {
          item.appendChild(document.createTextNode(" "));
          item.appendChild(postButton(L.answerUrl.replace("/0/", "/" + s.seek + "/"), L.play));
        }
        list.appendChild(item);
      });
    };
    var poll = function () {
      every(LOBBY_POLL_MS, function () {
        getJSON("/api/v1/lobby/")
          .then(function (d) {
            if (d) drawLobby(d);
          })
          .catch(function () {
            /* the next look */
          });
      });
    };
    if (window.EventSource) {
      var failures = 0;
      var source = new EventSource(lobby.dataset.streamUrl);
      source.addEventListener("lobby", function (ev) {
        failures = 0;
        drawLobby(JSON.parse(ev.data));
      });
      source.addEventListener("error", function () {
        failures += 1;
        if (failures >= 3) {
          source.close();
          poll();
        }
      });
    } else if (window.fetch) {
      poll();
    }
  }
})();
