// The dashboard's filters. #filter-impl hides (display: none) every verdict cell whose client and
// server both lack the text; an empty placeholder takes a hidden cell's place so the others stay
// under their column heads, and rows and columns left without a match go. #filter-case hides
// the matrix tables of every other case.
(function () {
  "use strict";
  var impl = document.getElementById("filter-impl");
  var kase = document.getElementById("filter-case");
  if (!impl || !kase) {
    return;
  }
  function has(td, attr, text) {
    return (td.getAttribute(attr) || "").toLowerCase().indexOf(text) >= 0;
  }
  function filterTable(tb, text, only) {
    var holders = tb.querySelectorAll("td.placeholder");
    for (var h = 0; h < holders.length; h++) {
      holders[h].parentNode.removeChild(holders[h]);
    }
    var cells = tb.querySelectorAll("td.cell");
    var shown = 0;
    for (var i = 0; i < cells.length; i++) {
      var hit = text === "" || has(cells[i], "data-client", text) || has(cells[i], "data-server", text);
      cells[i].hidden = !hit;
      if (hit) {
        shown++;
      }
    }
    var rows = tb.tBodies.length ? tb.tBodies[0].rows : [];
    for (var r = 0; r < rows.length; r++) {
      rows[r].hidden = text !== "" && !rows[r].querySelector("td.cell:not([hidden])");
    }
    var head = tb.tHead ? tb.tHead.rows[0] : null;
    if (head) {
      var gone = [];
      for (var j = 1; j < head.cells.length; j++) {
        var any = false;
        var verdicts = false;
        for (var k = 0; k < rows.length; k++) {
          var td = rows[k].cells[j];
          if (td && td.classList.contains("cell")) {
            verdicts = true;
            any = any || !td.hidden;
          }
        }
        // an oracle column (no verdicts of its own) follows the verdict column before it
        gone[j] = verdicts ? text !== "" && !any : (j > 1 && gone[j - 1]);
        head.cells[j].classList.toggle("gone", gone[j]);
        for (var m = 0; m < rows.length; m++) {
          if (rows[m].cells[j]) {
            rows[m].cells[j].classList.toggle("gone", gone[j]);
          }
        }
      }
    }
    for (var p = 0; p < cells.length; p++) {
      if (cells[p].hidden) {
        var ph = document.createElement("td");
        ph.className = "placeholder" + (cells[p].classList.contains("gone") ? " gone" : "");
        cells[p].parentNode.insertBefore(ph, cells[p]);
      }
    }
    var off = (only !== "" && tb.getAttribute("data-case") !== only) || (text !== "" && shown === 0);
    tb.hidden = off;
    var fig = tb.closest("figure");
    if (fig) {
      fig.hidden = off;
    }
  }
  function apply() {
    var text = impl.value.trim().toLowerCase();
    var only = kase.value;
    var tables = document.querySelectorAll("table.matrix");
    for (var i = 0; i < tables.length; i++) {
      filterTable(tables[i], text, only);
    }
  }
  impl.addEventListener("input", apply);
  kase.addEventListener("change", apply);
  apply();
})();
