// codegraph web view: says when a newer revision than the page's is published (a light poll
// of /api/revision); the page is never changed under the reader, only a reload link is shown.
(function () {
  var body = document.body;
  var shown = Number(body.getAttribute("data-revision"));
  if (!shown) { return; }
  var root = body.getAttribute("data-root");
  var url = "/api/revision" + (root ? "?root=" + encodeURIComponent(root) : "");
  var banner = document.getElementById("newer");
  function check() {
    fetch(url, { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (v) {
        if (v && v.revision > shown && banner) {
          banner.textContent = "Revision " + v.revision + " is published (this page shows " + shown + "). ";
          var a = document.createElement("a");
          a.href = location.href; a.textContent = "Reload";
          banner.appendChild(a);
          banner.hidden = false;
        } else { setTimeout(check, 3000); }
      }).catch(function () { setTimeout(check, 10000); });
  }
  setTimeout(check, 3000);
})();
