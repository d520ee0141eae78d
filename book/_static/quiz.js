/* Exit quizzes (book/_ext/quiz.py writes the questions and their feedback into the page).
   A click on "Check", or Enter in a number field, shows the feedback for the answer given:
   right, close (a number near the answer, or the answer in the wrong units) or wrong.
   No kernel, no network: everything needed is in the page. */
(function () {
  "use strict";

  function parseNumber(text) {
    // a reader may write 6,25 (Russian) or 6.25, with spaces or a per cent sign
    var cleaned = text.replace(/[\s\u00a0%]/g, "").replace(",", ".");
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) { return NaN; }
    return parseFloat(cleaned);
  }

  function verdict(question) {
    var kind = question.getAttribute("data-kind");
    if (kind === "choice") {
      var chosen = question.querySelector("input[type=radio]:checked");
      if (!chosen) { return "empty"; }
      return chosen.value === question.getAttribute("data-answer") ? "right" : "wrong";
    }
    var field = question.querySelector(".quiz-value");
    if (!field.value.trim()) { return "empty"; }
    var value = parseNumber(field.value);
    if (isNaN(value)) { return "wrong"; }
    var answer = parseFloat(question.getAttribute("data-answer"));
    var tolerance = parseFloat(question.getAttribute("data-tolerance"));
    var close = parseFloat(question.getAttribute("data-close"));
    var gap = Math.abs(value - answer);
    if (gap <= tolerance + 1e-9) { return "right"; }
    // a share typed for a percentage (0.434 for 43.4) is the right number in other units
    if (gap <= close || Math.abs(value * 100 - answer) <= close) { return "close"; }
    return "wrong";
  }

  function check(question) {
    var said = verdict(question);
    question.setAttribute("data-verdict", said);
    var says = question.querySelectorAll(".quiz-says");
    for (var i = 0; i < says.length; i++) {
      says[i].hidden = says[i].getAttribute("data-verdict") !== said;
    }
  }

  function setUp() {
    var questions = document.querySelectorAll(".quiz-question");
    for (var i = 0; i < questions.length; i++) {
      (function (question) {
        question.querySelector(".quiz-check").addEventListener("click", function () {
          check(question);
        });
        var field = question.querySelector(".quiz-value");
        if (field) {
          field.addEventListener("keydown", function (event) {
            if (event.key === "Enter") { event.preventDefault(); check(question); }
          });
        }
      })(questions[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
