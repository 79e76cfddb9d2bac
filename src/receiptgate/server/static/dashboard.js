// receiptgate dashboard: evidence panels and small htmx niceties. No inline scripts
// (the pages' CSP forbids them); everything is delegated from document so that it
// also works on content htmx swaps in.
(function () {
  "use strict";

  function closeAll(report) {
    report.querySelectorAll(".evidence-panel").forEach(function (p) { p.hidden = true; });
    report.querySelectorAll(".sent[aria-expanded]").forEach(function (s) {
      s.setAttribute("aria-expanded", "false");
      s.classList.remove("selected");
    });
  }

  function toggle(sentence) {
    var panel = document.getElementById(sentence.getAttribute("aria-controls"));
    var report = sentence.closest(".report");
    if (!panel || !report) { return; }
    var wasOpen = !panel.hidden;
    closeAll(report);
    if (!wasOpen) {
      panel.hidden = false;
      sentence.setAttribute("aria-expanded", "true");
      sentence.classList.add("selected");
    }
  }

  document.addEventListener("click", function (e) {
    var sentence = e.target.closest(".textblock .sent[aria-controls]");
    if (sentence) { toggle(sentence); return; }
    var close = e.target.closest(".panel-close");
    if (close) { closeAll(close.closest(".report")); }
  });

  document.addEventListener("keydown", function (e) {
    if ((e.key === "Enter" || e.key === " ") && e.target.matches(".textblock .sent[aria-controls]")) {
      e.preventDefault();
      toggle(e.target);
    }
  });

  // Clear the feedback note once it has been recorded.
  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail.elt;
    if (e.detail.successful && elt && elt.matches && elt.matches("form[data-reset-on-success]")) {
      elt.reset();
    }
  });
})();
