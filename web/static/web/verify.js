/* "Verify this deal" on a finished match's page: docs/RULES.md section 11 checked in the browser.
 *
 * From the revealed seeds alone it checks the commitment (SHA-256 of the server seed is the seed_sha256
 * published before play), derives the deal seed (SHA-256 of "server_seed:client seed 0:client seed 1..."),
 * shuffles the canonical deck with the SHA-256 Fisher-Yates of section 7 and compares every card with
 * the decks the server dealt. SHA-256 is written out here (FIPS 180-4) so that it also works where the
 * Web Crypto API is not offered (a page served over plain HTTP); nothing is asked of the server.
 */
(function () {
  "use strict";

  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ];

  function utf8(text) {
    return new TextEncoder().encode(text);
  }

  /* SHA-256 of a byte array: a Uint8Array of 32 bytes. */
  function sha256(bytes) {
    var length = bytes.length;
    var padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[length] = 0x80;
    var view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(length / 0x20000000), false);
    view.setUint32(padded.length - 4, (length << 3) >>> 0, false);
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var w = new Array(64);
    for (var block = 0; block < padded.length; block += 64) {
      for (var t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4, false);
      for (t = 16; t < 64; t++) {
        var x = w[t - 15], y = w[t - 2];
        var s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        var s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (t = 0; t < 64; t++) {
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var ch = (e & f) ^ (~e & g);
        var t1 = (k + S1 + ch + K[t] + w[t]) >>> 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var maj = (a & b) ^ (a & c) ^ (b & c);
        var t2 = (S0 + maj) >>> 0;
        k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h = [h[0] + a, h[1] + b, h[2] + c, h[3] + d, h[4] + e, h[5] + f, h[6] + g, h[7] + k].map(function (v) {
        return v >>> 0;
      });
    }
    var out = new Uint8Array(32);
    var outView = new DataView(out.buffer);
    h.forEach(function (v, i) { outView.setUint32(i * 4, v, false); });
    return out;
  }

  function hex(bytes) {
    return Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
  }

  function sha256Hex(text) {
    return hex(sha256(utf8(text)));
  }

  /* Section 1's canonical order: suits O, C, E, B; ranks 1-7, (8, 9,) 10, 11, 12; the 2s maybe removed. */
  function canonicalDeck(deck48, withoutTwos) {
    var ranks = [1, 2, 3, 4, 5, 6, 7].concat(deck48 ? [8, 9] : []).concat([10, 11, 12]);
    if (withoutTwos) ranks = ranks.filter(function (r) { return r !== 2; });
    var cards = [];
    "OCEB".split("").forEach(function (suit) {
      ranks.forEach(function (rank) { cards.push(rank + suit); });
    });
    return cards;
  }

  /* Section 7: for i from D-1 down to 1, j = first 8 bytes of SHA-256("{seed}:{hand}:{i}"), big-endian,
   * modulo (i + 1); swap cards i and j. */
  function shuffled(cards, seed, hand) {
    var deck = cards.slice();
    for (var i = deck.length - 1; i > 0; i--) {
      var digest = sha256(utf8(seed + ":" + hand + ":" + i));
      var number = BigInt(0);
      for (var b = 0; b < 8; b++) number = (number << BigInt(8)) | BigInt(digest[b]);
      var j = Number(number % BigInt(i + 1));
      var swap = deck[i];
      deck[i] = deck[j];
      deck[j] = swap;
    }
    return deck;
  }

  /* A card's name as the site writes it ("3 de oros", "Rey de copas"), from the panel's words. */
  function cardName(code, S) {
    var rank = code.slice(0, -1);
    var suit = code.slice(-1);
    var ranks = S.ranks || {};
    var suits = S.suits || {};
    return (ranks[rank] || rank) + " " + (S.of || "de") + " " + (suits[suit] || suit);
  }

  function cardNames(codes, S) {
    return codes
      .map(function (c) {
        return cardName(c, S);
      })
      .join(", ");
  }

  /* Every check of one game: [{ok, text}], and the hands of its first deal. */
  function checkGame(g, S) {
    var checks = [];
    var committed = sha256Hex(g.server_seed);
    checks.push({
      ok: committed === g.seed_sha256,
      text: fmt(S.commitment, { got: committed, want: g.seed_sha256 }),
    });
    var text = [g.server_seed].concat(g.client_seeds).join(":");
    var seed = sha256Hex(text);
    checks.push({ ok: seed === g.seed, text: fmt(S.seed, { text: '"' + text + '"', got: seed, want: g.seed }) });
    var base = canonicalDeck(g.deck48, g.without_twos);
    g.decks.forEach(function (dealt, hand) {
      var deck = shuffled(base, seed, hand);
      var same = deck.join(" ") === dealt.join(" ");
      checks.push({
        ok: same,
        text: same
          ? fmt(S.deck, { n: hand + 1, count: deck.length })
          : fmt(S.deck_bad, { n: hand + 1, got: cardNames(deck, S), want: cardNames(dealt, S) }),
      });
      if (hand === 0) {
        var n = g.players, k = g.hand_size, mano = (g.dealer + 1) % n;
        for (var block = 0; block < n; block++) {
          var gameSeat = (mano + block) % n;
          var seat = g.seat_map ? g.seat_map[gameSeat] : gameSeat;
          checks.push({
            ok: same,
            text: fmt(S.dealt, { seat: seat + 1, cards: cardNames(deck.slice(block * k, block * k + k), S) }),
          });
        }
      }
    });
    return checks;
  }

  function fmt(text, vars) {
    return String(text).replace(/%\((\w+)\)s/g, function (_m, key) {
      return vars[key] === undefined ? "" : vars[key];
    });
  }

  function data(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function run() {
    var games = data("verify-data") || [];
    var S = data("verify-strings") || {};
    var allOk = true;
    games.forEach(function (g, index) {
      var list = document.querySelector('.verify-game[data-game="' + index + '"] .verify-checks');
      if (!list) return;
      list.textContent = "";
      checkGame(g, S).forEach(function (check) {
        allOk = allOk && check.ok;
        var item = document.createElement("li");
        item.className = check.ok ? "ok" : "bad";
        var mark = document.createElement("strong");
        mark.textContent = (check.ok ? "✓ " : "✗ ") + (check.ok ? S.ok : S.bad) + ": ";
        item.appendChild(mark);
        item.appendChild(document.createTextNode(check.text));
        list.appendChild(item);
      });
    });
    var summary = document.getElementById("verify-summary");
    if (summary) {
      summary.textContent = allOk ? S.all_ok : S.some_bad;
      summary.className = "verify-summary " + (allOk ? "ok" : "bad");
    }
  }

  // Exposed for tests and curious readers: the same functions the panel runs.
  window.tuteVerify = { sha256Hex: sha256Hex, shuffled: shuffled, canonicalDeck: canonicalDeck, checkGame: checkGame };

  var button = document.getElementById("verify-run");
  if (button) button.addEventListener("click", run);
})();
