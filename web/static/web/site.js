/* Small helps on every page (the pages work without them):
 * - a form with data-confirm asks before it is sent (calling a tournament off, withdrawing...);
 * - <time class="local-time"> shows the moment in the reader's time zone;
 * - the tournament form fills in the organiser's time zone and shows only the fields of the chosen format
 *   and match format (duplicate scoring only for duplicate matches);
 * - a block with data-refresh="N" is read again every N seconds while nobody is typing in it;
 * - on a narrow screen the header's links fold behind a menu button (a disclosure: aria-expanded,
 *   Escape closes it and gives the focus back to the button).
 */
(function () {
  "use strict";

  var header = document.getElementById("top");
  var toggle = document.getElementById("menu-toggle");
  var nav = document.getElementById("main-nav");
  if (header && toggle && nav) {
    var setOpen = function (open) {
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      header.classList.toggle("menu-open", open);
    };
    header.classList.add("has-menu"); // only now may the stylesheet fold the links away
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      setOpen(toggle.getAttribute("aria-expanded") !== "true");
    });
    header.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && toggle.getAttribute("aria-expanded") === "true") {
        setOpen(false);
        toggle.focus();
      }
    });
  }

  var printNow = document.getElementById("print-now");
  if (printNow) {
    printNow.hidden = false;
    printNow.addEventListener("click", function () {
      window.print();
    });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) ev.preventDefault();
  });

  var localTimes = function (root) {
    var fmt;
    try {
      fmt = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
        dateStyle: "medium",
        timeStyle: "short",
      });
    } catch (_e) {
      return;
    }
    Array.prototype.forEach.call(root.querySelectorAll("time.local-time"), function (t) {
      var when = new Date(t.getAttribute("datetime"));
      if (!isNaN(when.getTime())) t.textContent = fmt.format(when);
    });
  };
  localTimes(document);

  var zone = document.querySelector("[data-time-zone]");
  if (zone && !zone.value) {
    try {
      zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    } catch (_e) {
      zone.value = "UTC";
    }
  }

  var format = document.getElementById("id_format");
  var registration = document.getElementById("id_registration");
  var matchFormat = document.getElementById("id_match_format");
  var showFields = function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-formats]"), function (input) {
      var row = input.closest("p") || input;
      row.hidden = format && input.dataset.formats.split(" ").indexOf(format.value) < 0;
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-match-formats]"), function (input) {
      var row = input.closest("p") || input;
      row.hidden = matchFormat && input.dataset.matchFormats.split(" ").indexOf(matchFormat.value) < 0;
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-registration]"), function (input) {
      var row = input.closest("p") || input;
      row.hidden = registration && input.dataset.registration !== registration.value;
    });
  };
  if (format) format.addEventListener("change", showFields);
  if (registration) registration.addEventListener("change", showFields);
  if (matchFormat) matchFormat.addEventListener("change", showFields);
  showFields();

  var live = document.querySelector("[data-refresh]");
  if (live && window.fetch && window.DOMParser) {
    var seconds = parseInt(live.dataset.refresh, 10) || 20;
    var busy = function () {
      var a = document.activeElement;
      return a && live.contains(a) && /INPUT|SELECT|TEXTAREA/.test(a.tagName);
    };
    window.setInterval(function () {
      if (document.hidden || busy()) return;
      fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .then(function (r) {
          return r.ok ? r.text() : null;
        })
        .then(function (html) {
          if (!html || busy()) return;
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(live.id);
          if (fresh && fresh.innerHTML !== live.innerHTML) {
            live.innerHTML = fresh.innerHTML;
            localTimes(live);
          }
        })
        .catch(function () {
          /* the next refresh */
        });
    }, seconds * 1000);
  }
})();
