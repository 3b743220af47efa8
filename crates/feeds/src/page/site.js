// Small enhancements of the feed server's pages; everything works without this file.
"use strict";
(function () {
  // The calculator: the ratio field applies to fancy shapes only; show each shape's range.
  var shape = document.getElementById("shape");
  var ratio = document.getElementById("ratio");
  var help = document.getElementById("ratio-help");
  if (shape && ratio && help) {
    var update = function () {
      var option = shape.options[shape.selectedIndex];
      var fancy = option && option.hasAttribute("data-ratio-center");
      var field = ratio.closest(".field");
      ratio.disabled = !fancy && ratio.value === "";
      if (field) field.classList.toggle("disabled", ratio.disabled);
      help.textContent = fancy
        ? "From " + option.getAttribute("data-ratio-min") + " to " + option.getAttribute("data-ratio-max") +
          "; empty for " + option.getAttribute("data-ratio-center") + "."
        : "Round stones have no L/W ratio.";
    };
    shape.addEventListener("change", update);
    update();
  }

  // Charts: tapping or hovering a point shows its day and value under the chart.
  var money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  Array.prototype.forEach.call(document.querySelectorAll("svg.chart"), function (svg) {
    var tip = document.createElement("p");
    tip.className = "tip";
    tip.setAttribute("aria-live", "polite");
    svg.parentNode.insertBefore(tip, svg.nextSibling);
    var points = svg.querySelectorAll("circle.point");
    var show = function (point) {
      Array.prototype.forEach.call(points, function (p) { p.classList.remove("active"); });
      point.classList.add("active");
      var value = point.getAttribute("data-dcx") || point.getAttribute("data-per-carat-usd");
      tip.textContent = point.getAttribute("data-date") + ": " + money.format(Number(value)) + " per carat";
    };
    Array.prototype.forEach.call(points, function (point) {
      point.addEventListener("mouseenter", function () { show(point); });
      point.addEventListener("click", function () { show(point); });
    });
    if (points.length) show(points[points.length - 1]);
  });

  // The band switch: mark the band shown.
  var links = document.querySelectorAll("nav.bands a");
  var mark = function () {
    var shown = location.hash.indexOf("#band-") === 0 ? location.hash : "#band-1.0";
    Array.prototype.forEach.call(links, function (a) {
      a.classList.toggle("current", a.getAttribute("href") === shown);
    });
  };
  window.addEventListener("hashchange", mark);
  mark();
})();
