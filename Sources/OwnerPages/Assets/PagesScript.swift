import ServiceCore

/// The pages' one script, for what is better with it and works without it: the picker's live
/// count, its search filtering the rows already shown as one types, suggestions applied as they
/// are ticked; the account pickers' date fields enabled only for ticked accounts. No inline script
/// anywhere (the pages' CSP allows none).
enum PagesScript {
    static let text = """
        "use strict";
        document.addEventListener("DOMContentLoaded", function () {
          var picker = document.getElementById("picker");
          if (picker) {
            var counter = picker.querySelector("[data-count]");
            var hidden = picker.querySelectorAll("input[type=hidden][name=selected]").length;
            var update = function () {
              var checked = picker.querySelectorAll("input[type=checkbox][name=selected]:checked").length;
              if (counter) { counter.textContent = String(checked + hidden); }
            };
            picker.addEventListener("change", function (event) {
              if (event.target.hasAttribute("data-submit")) { picker.submit(); } else { update(); }
            });
            var search = document.getElementById("q");
            if (search) {
              search.addEventListener("input", function () {
                var needle = search.value.toLowerCase();
                picker.querySelectorAll("ul.transactions li").forEach(function (row) {
                  row.hidden = needle !== "" && row.textContent.toLowerCase().indexOf(needle) < 0;
                });
              });
            }
            update();
          }
          document.querySelectorAll("input[type=checkbox][data-date]").forEach(function (box) {
            var date = document.getElementById(box.getAttribute("data-date"));
            if (!date) { return; }
            var sync = function () { date.disabled = !box.checked; };
            box.addEventListener("change", sync);
            sync();
          });
        });
        """
}
